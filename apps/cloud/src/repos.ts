import type { Kysely } from 'kysely';
import type { Database, Dialect } from './db/database.ts';
import { createStore, type Store } from './db/store.ts';
import type { DB } from './db/schema.ts';
import { AuditRepo } from './http/audit.repo.ts';
import { AccountsRepo } from './domains/accounts/accounts.repo.ts';
import { AdDeliveryRepo } from './domains/ad-delivery/ad-delivery.repo.ts';
import { AdPurchasesRepo } from './domains/ad-purchases/ad-purchases.repo.ts';
import { TestPaymentsRepo } from './domains/ad-purchases/test-processor.repo.ts';
import { KioskCheckoutsRepo } from './domains/kiosk-checkout/kiosk-checkout.repo.ts';
import { CampaignsRepo } from './domains/campaigns/campaigns.repo.ts';
import { CreativesRepo } from './domains/creatives/creatives.repo.ts';
import { ScreensaversRepo } from './domains/screensavers/screensavers.repo.ts';
import { VenuesRepo } from './domains/venues/venues.repo.ts';
import { CrewsRepo } from './domains/crews/crews.repo.ts';
import { AccessRepo } from './domains/access/access.repo.ts';
import { RestockRepo } from './domains/restock/restock.repo.ts';
import { DfyRepo } from './domains/dfy/deals/dfy.repo.ts';
import { DfyModesRepo } from './domains/dfy/modes/dfy-modes.repo.ts';
import { DfyInventoryRepo } from './domains/dfy/inventory/dfy-inventory.repo.ts';
import { DfyFleetsRepo } from './domains/dfy/pool/dfy-fleets.repo.ts';
import { NegotiationRepo } from './domains/negotiation/negotiation.repo.ts';
import { OutreachRepo } from './domains/outreach/outreach.repo.ts';
import { LedgerRepo } from './domains/finance/ledger.repo.ts';
import { PayoutsRepo } from './domains/finance/payouts.repo.ts';
import { PrizesRepo } from './domains/prizes/prizes.repo.ts';
import { TaxRepo } from './domains/tax/tax.repo.ts';
import { AuthRepo } from './domains/auth/auth.repo.ts';
import { CommandsRepo } from './domains/commands/commands.repo.ts';
import { DeviceCredentialsRepo } from './domains/device-credentials/device-credentials.repo.ts';
import { CredentialFleetRepo } from './domains/device-credentials/credential-fleet.repo.ts';
import { IdentityIncidentsRepo } from './domains/device-credentials/identity-incidents.repo.ts';
import { GatewayRepo } from './domains/gateway/gateway.repo.ts';
import { InventoryRepo } from './domains/inventory/inventory.repo.ts';
import { MachinesRepo } from './domains/machines/machines.repo.ts';
import { CabinetSettingsRepo } from './domains/machines/cabinet-settings.repo.ts';
import { OperatorViewRepo } from './domains/operator-view/operator-view.repo.ts';
import { OrdersRepo } from './domains/orders/orders.repo.ts';
import { PaymentsRepo } from './domains/payments/payments.repo.ts';
import { ReleasesRepo } from './domains/releases/releases.repo.ts';
import { SandboxRepo } from './domains/sandbox/sandbox.repo.ts';
import { MockSspRepo } from './domains/ssp/mock-ssp.repo.ts';
import { LeaseRepo } from './jobs/lease.repo.ts';
import { WebhooksRepo } from './domains/webhooks/webhooks.repo.ts';
import { AlertsRepo } from './domains/alerts/alerts.repo.ts';
import { DexRepo } from './domains/dex/dex.repo.ts';

/**
 * Every repository, bound to one handle: the database (`store.repos`) or one transaction (the `tx`
 * of `store.transaction`). Built lazily: a transaction pays only for the repositories it touches.
 * The one table each repository writes is listed in apps/cloud/README.md.
 */
export class Repos {
  readonly #db: Kysely<DB>;
  readonly #dialect: Dialect;
  readonly #built = new Map<string, unknown>();

  constructor(db: Kysely<DB>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #once<T>(name: string, make: (db: Kysely<DB>, dialect: Dialect) => T): T {
    let repo = this.#built.get(name) as T | undefined;
    if (repo === undefined) {
      repo = make(this.#db, this.#dialect);
      this.#built.set(name, repo);
    }
    return repo;
  }

  get audit(): AuditRepo {
    return this.#once('audit', (db) => new AuditRepo(db));
  }
  get accounts(): AccountsRepo {
    return this.#once('accounts', (db) => new AccountsRepo(db));
  }
  get adDelivery(): AdDeliveryRepo {
    return this.#once('adDelivery', (db) => new AdDeliveryRepo(db));
  }
  get adPurchases(): AdPurchasesRepo {
    return this.#once('adPurchases', (db) => new AdPurchasesRepo(db));
  }
  get testPayments(): TestPaymentsRepo {
    return this.#once('testPayments', (db) => new TestPaymentsRepo(db));
  }
  get kioskCheckouts(): KioskCheckoutsRepo {
    return this.#once('kioskCheckouts', (db) => new KioskCheckoutsRepo(db));
  }
  get campaigns(): CampaignsRepo {
    return this.#once('campaigns', (db) => new CampaignsRepo(db));
  }
  get creatives(): CreativesRepo {
    return this.#once('creatives', (db) => new CreativesRepo(db));
  }
  get screensavers(): ScreensaversRepo {
    return this.#once('screensavers', (db) => new ScreensaversRepo(db));
  }
  get venues(): VenuesRepo {
    return this.#once('venues', (db, dialect) => new VenuesRepo(db, dialect));
  }
  get crews(): CrewsRepo {
    return this.#once('crews', (db, dialect) => new CrewsRepo(db, dialect));
  }
  get access(): AccessRepo {
    return this.#once('access', (db, dialect) => new AccessRepo(db, dialect));
  }
  get restock(): RestockRepo {
    return this.#once('restock', (db) => new RestockRepo(db));
  }
  get dfy(): DfyRepo {
    return this.#once('dfy', (db, dialect) => new DfyRepo(db, dialect));
  }
  get dfyModes(): DfyModesRepo {
    return this.#once('dfyModes', (db) => new DfyModesRepo(db));
  }
  get dfyInventory(): DfyInventoryRepo {
    return this.#once('dfyInventory', (db, dialect) => new DfyInventoryRepo(db, dialect));
  }
  get dfyFleets(): DfyFleetsRepo {
    return this.#once('dfyFleets', (db, dialect) => new DfyFleetsRepo(db, dialect));
  }
  get negotiation(): NegotiationRepo {
    return this.#once('negotiation', (db, dialect) => new NegotiationRepo(db, dialect));
  }
  get outreach(): OutreachRepo {
    return this.#once('outreach', (db, dialect) => new OutreachRepo(db, dialect));
  }
  get ledger(): LedgerRepo {
    return this.#once('ledger', (db) => new LedgerRepo(db));
  }
  get payouts(): PayoutsRepo {
    return this.#once('payouts', (db) => new PayoutsRepo(db));
  }
  get prizes(): PrizesRepo {
    return this.#once('prizes', (db, dialect) => new PrizesRepo(db, dialect));
  }
  get tax(): TaxRepo {
    return this.#once('tax', (db, dialect) => new TaxRepo(db, dialect));
  }
  get auth(): AuthRepo {
    return this.#once('auth', (db) => new AuthRepo(db));
  }
  get cabinetSettings(): CabinetSettingsRepo {
    return this.#once('cabinetSettings', (db) => new CabinetSettingsRepo(db));
  }
  get commands(): CommandsRepo {
    return this.#once('commands', (db) => new CommandsRepo(db));
  }
  get deviceCredentials(): DeviceCredentialsRepo {
    return this.#once('deviceCredentials', (db, dialect) => new DeviceCredentialsRepo(db, dialect));
  }
  get credentialFleet(): CredentialFleetRepo {
    return this.#once('credentialFleet', (db) => new CredentialFleetRepo(db));
  }
  get identityIncidents(): IdentityIncidentsRepo {
    return this.#once('identityIncidents', (db, dialect) => new IdentityIncidentsRepo(db, dialect));
  }
  get gateway(): GatewayRepo {
    return this.#once('gateway', (db, dialect) => new GatewayRepo(db, dialect));
  }
  get inventory(): InventoryRepo {
    return this.#once('inventory', (db, dialect) => new InventoryRepo(db, dialect));
  }
  get leases(): LeaseRepo {
    return this.#once('leases', (db) => new LeaseRepo(db));
  }
  get machines(): MachinesRepo {
    return this.#once('machines', (db, dialect) => new MachinesRepo(db, dialect));
  }
  get operatorView(): OperatorViewRepo {
    return this.#once('operatorView', (db) => new OperatorViewRepo(db));
  }
  get orders(): OrdersRepo {
    return this.#once('orders', (db) => new OrdersRepo(db));
  }
  get payments(): PaymentsRepo {
    return this.#once('payments', (db) => new PaymentsRepo(db));
  }
  get releases(): ReleasesRepo {
    return this.#once('releases', (db, dialect) => new ReleasesRepo(db, dialect));
  }
  get sandbox(): SandboxRepo {
    return this.#once('sandbox', (db) => new SandboxRepo(db));
  }
  get sspMock(): MockSspRepo {
    return this.#once('sspMock', (db) => new MockSspRepo(db));
  }
  get dex(): DexRepo {
    return this.#once('dex', (db) => new DexRepo(db));
  }
  get alerts(): AlertsRepo {
    return this.#once('alerts', (db) => new AlertsRepo(db));
  }
  get webhooks(): WebhooksRepo {
    return this.#once('webhooks', (db) => new WebhooksRepo(db));
  }
}

/** The store of this service: its repositories, on the database or in one transaction. */
export type AppStore = Store<Repos>;

export function createAppStore(database: Pick<Database, 'db' | 'dialect'>): AppStore {
  return createStore(database, (db, dialect) => new Repos(db, dialect));
}
