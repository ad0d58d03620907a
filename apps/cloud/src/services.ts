import type { AppContext } from './context.ts';
import { accessChain } from './http/guard.ts';
import { SessionCsrf } from './http/page-session-auth.ts';
import type { RouteKit } from './http/route.ts';
import { createAppStore, type AppStore } from './repos.ts';
import { sandboxSeedSteps } from './bootstrap.ts';
import type { SeedStep } from './db/seed.ts';
import { Jobs } from './background-jobs.ts';
import { FleetRuntime } from './fleet-runtime.ts';
import type { Geocoder } from './domains/machines/geocoder.ts';
import { AccountsService } from './domains/accounts/accounts.service.ts';
import { AuthService } from './domains/auth/auth.service.ts';
import { IdentityTokenVerifier, IdpBearerVerifier } from './domains/auth/id-token.ts';
import { OAuthService } from './domains/auth/oauth.service.ts';
import { SignInService } from './domains/auth/signin.service.ts';
import { MachinesService } from './domains/machines/machines.service.ts';
import { CabinetSettingsService } from './domains/machines/cabinet-settings.service.ts';
import { OperatorViewService } from './domains/operator-view/operator-view.service.ts';
import { InventoryService } from './domains/inventory/inventory.service.ts';
import { OrdersService } from './domains/orders/orders.service.ts';
import { SalesService } from './domains/orders/sales.service.ts';
import { PaymentsService } from './domains/payments/payments.service.ts';
import { CommandsService } from './domains/commands/commands.service.ts';
import { SandboxService } from './domains/sandbox/sandbox.service.ts';
import { CredentialAdminService } from './domains/device-credentials/credential-admin.service.ts';
import { CredentialFleetService } from './domains/device-credentials/credential-fleet.service.ts';
import { EnrolmentModesService } from './domains/device-credentials/enrolment-modes.service.ts';
import { EnrolmentService } from './domains/device-credentials/enrolment.service.ts';
import { FactoryBuildsService } from './domains/device-credentials/factory-builds.service.ts';
import { DeviceKeyVerifier } from './domains/device-credentials/key-verifier.ts';
import { AgentFleetService } from './domains/releases/agent-fleet.service.ts';
import { ReleaseRegistryService } from './domains/releases/release-registry.service.ts';
import { RolloutService } from './domains/releases/rollout.service.ts';
import { UpgradeOffersService } from './domains/releases/upgrade-offers.service.ts';
import { GatewayService } from './domains/gateway/gateway.service.ts';
import { DispenseReportsService } from './domains/gateway/dispense-reports.service.ts';
import { PendingPollService } from './domains/gateway/pending-poll.service.ts';
import { cabinetGuard, type CabinetGuard } from './domains/gateway/device-auth.ts';
import { ApkService } from './domains/apk/apk.service.ts';
import path from 'node:path';
import { DoohInventoryService } from './domains/dooh/dooh-inventory.service.ts';
import { CreativesService, mediaUrl } from './domains/creatives/creatives.service.ts';
import { MediaStore } from './domains/creatives/media-store.ts';
import { HttpStudio } from './domains/creatives/studio.ts';
import { CampaignsService } from './domains/campaigns/campaigns.service.ts';
import { CampaignReportsService } from './domains/campaigns/campaign-reports.service.ts';
import { ScreensaversService } from './domains/screensavers/screensavers.service.ts';
import { VenuesService } from './domains/venues/venues.service.ts';
import { CrewsService } from './domains/crews/crews.service.ts';
import { AccessService } from './domains/access/access.service.ts';
import { RestockService } from './domains/restock/restock.service.ts';
import { DfyService } from './domains/dfy/deals/dfy.service.ts';
import { DfyInstallService } from './domains/dfy/shipping-install/install.service.ts';
import { DfyPortfolioService } from './domains/dfy/portfolio/portfolio.service.ts';
import { DfyModesService } from './domains/dfy/modes/dfy-modes.service.ts';
import { DfyInventoryService } from './domains/dfy/inventory/dfy-inventory.service.ts';
import { DfyAutopilotService } from './domains/dfy-autopilot/dfy-autopilot.service.ts';
import { NegotiationService } from './domains/negotiation/negotiation.service.ts';
import { OutreachService } from './domains/outreach/outreach.service.ts';
import { outreachChannelsFor } from './domains/outreach/channels/channels-for.ts';
import type { Channel, ChannelAdapter } from './domains/outreach/channels/channel.ts';
import { mailSenderFor, type MailSender } from './mail/mail-sender.ts';
import { EntriesService } from './domains/finance/entries.service.ts';
import { PayoutsService } from './domains/finance/payouts.service.ts';
import { PnlService } from './domains/finance/pnl.service.ts';
import { PrizesService } from './domains/prizes/prizes.service.ts';
import { TaxService } from './domains/tax/tax.service.ts';
import { AdDeliveryService } from './domains/ad-delivery/ad-delivery.service.ts';
import { ProofOfPlayService } from './domains/ad-delivery/proof-of-play.service.ts';
import { MockSspService } from './domains/ssp/mock-ssp.service.ts';
import { supplyFor } from './domains/ssp/supply-factory.ts';
import type { SupplyAdapter } from './domains/ssp/supply.ts';
import type { MediaType } from './domains/creatives/media-probe.ts';
import { PricingService } from './domains/pricing/pricing.service.ts';
import { MarketplaceService } from './domains/ad-purchases/marketplace.service.ts';
import type { TestProcessor } from './domains/ad-purchases/test-processor.ts';
import { paymentProcessorsFor, paymentServices, type PaymentServices } from './payment-services.ts';
import { KioskCheckoutService } from './domains/kiosk-checkout/kiosk-checkout.service.ts';
import { WebhookEvents } from './domains/webhooks/webhook-events.ts';
import { WebhookDeliveryService } from './domains/webhooks/webhook-delivery.service.ts';
import { UndiciWebhookSender, type WebhookSender } from './domains/webhooks/webhook-sender.ts';
import { WebhooksService } from './domains/webhooks/webhooks.service.ts';
import { AlertsService } from './domains/alerts/alerts.service.ts';
import { FleetEvents } from './domains/alerts/fleet-events.ts';
import { DexService } from './domains/dex/dex.service.ts';
import { PresenceService } from './domains/alerts/presence.service.ts';
import { MailSenderAlertMailer, type AlertMailer } from './domains/alerts/alert-mailer.ts';

/**
 * Every service of the cloud, each built exactly once (in `createServices`). Route factories and
 * background loops receive the ones they use; no route or service constructs another service.
 */
export interface Services extends PaymentServices {
  store: AppStore;
  /** Each domain's part of the sandbox data set (`seedIfEmpty`, the sandbox reset). */
  seedSteps: SeedStep[];
  /** The API document and the access chains its routes' docs call for, for the route factories. */
  routes: RouteKit;
  // operators: who is calling, their accounts and machines
  /** Operator authentication (API keys, bearer tokens, IdP JWTs) and who-am-I; the guards in `routes` use it. */
  auth: AuthService;
  /** The pages' session cookie + `X-CSRF-Token` as an API credential: the guards accept it, the console page hands out its token. */
  sessionCsrf: SessionCsrf;
  oauth: OAuthService;
  signIn: SignInService;
  accounts: AccountsService;
  machines: MachinesService;
  cabinetSettings: CabinetSettingsService;
  operatorView: OperatorViewService;
  // stock and money
  inventory: InventoryService;
  orders: OrdersService;
  /** The one way a sale is recorded (walk-up, remote drop, family A, the payment webhook). */
  sales: SalesService;
  payments: PaymentsService;
  commands: CommandsService;
  sandbox: SandboxService;
  // device credentials: the per-request key check, enrolment, administration, modes, views, factory builds
  deviceKeys: DeviceKeyVerifier;
  enrolment: EnrolmentService;
  credentialAdmin: CredentialAdminService;
  enrolmentModes: EnrolmentModesService;
  credentialFleet: CredentialFleetService;
  factoryBuilds: FactoryBuildsService;
  // agent releases: the registry, the rollout and pins, each cabinet's offer, the fleet view and progress
  releaseRegistry: ReleaseRegistryService;
  rollouts: RolloutService;
  upgradeOffers: UpgradeOffersService;
  agentFleet: AgentFleetService;
  // the cabinet gateway and family A
  gateway: GatewayService;
  dispenseReports: DispenseReportsService;
  pendingPoll: PendingPollService;
  /** The cabinet credential check every gateway and family-A leg starts with. */
  cabinetGuard: CabinetGuard;
  apk: ApkService;
  // screen advertising
  /** Creatives: uploads measured and stored by hash, studio generations, media files, house posters. */
  creatives: CreativesService;
  campaigns: CampaignsService;
  campaignReports: CampaignReportsService;
  screensavers: ScreensaversService;
  venues: VenuesService;
  /** Crews of people who run machines together, their members and invitations. */
  crews: CrewsService;
  access: AccessService;
  /** Restock runs: driver visits to machines of a crew's fleet, planned from par levels, completed into stock once. */
  restock: RestockService;
  /** Done-for-you placement: deals, checkpoints, confirm gates, checkout; the port negotiation and outreach change deals through. */
  dfy: DfyService;
  /** DFY shipping and install: tracking, install work orders, the install-day enrolment arm, auto-onboarding. */
  dfyInstall: DfyInstallService;
  /** DFY portfolio: settings and the portfolio and securities views. */
  dfyPortfolio: DfyPortfolioService;
  /** DFY operating modes (capability toggles, the five-level resolver) and the paid concierge. */
  dfyModes: DfyModesService;
  /** DFY inventory automation: refill supplier orders, the monthly cap, receiving into stock and FIFO. */
  dfyInventory: DfyInventoryService;
  /** The done-for-you autopilot: one tick over the deals' passes and the inventory tick, bounded by the portfolio settings. */
  dfyAutopilot: DfyAutopilotService;
  negotiation: NegotiationService;
  /** Done-for-you outreach: directory, shortlist, the outreach runs, provider callbacks, opt-outs. */
  outreach: OutreachService;
  /** The adapter of each outreach channel (null: not configured); the recording outboxes in the sandbox. */
  outreachChannels: Record<Channel, ChannelAdapter | null>;
  /** The one outgoing e-mail sender (SMTP, or the recording outbox): outreach, alert e-mails. */
  mail: MailSender;
  // finance: referrals/payroll/expenses, host statements and payouts, P&L and balance sheet
  entries: EntriesService;
  payouts: PayoutsService;
  pnl: PnlService;
  /** The kiosk prize game: mechanics, the cabinet's game events, the prizes report, the operator view's game money. */
  prizes: PrizesService;
  /** Sales tax: the sale-time rate, schedules, remittances, restatement of a machine's open periods. */
  tax: TaxService;
  /** The attract loop of each machine and its proof of play. */
  adDelivery: AdDeliveryService;
  proofOfPlay: ProofOfPlayService;
  /** The DOOH screen inventory export and the OpenOOH venue taxonomy. */
  doohInventory: DoohInventoryService;
  // screen ads: the built-in mock SSP (its routes are mounted in sandbox mode) and the supply adapter the loop fills from
  sspMock: MockSspService;
  supply: SupplyAdapter;
  // the self-serve marketplace
  /** The public price lists (ad catalog, operator subscription), versioned data. */
  pricing: PricingService;
  /** The buyer's side: quotes, creative drafts, purchases, the tokenized status (the buyer pages call it too). */
  marketplace: MarketplaceService;
  /** The built-in test payment processor (sandbox only; null otherwise: no processor, purchases answer 503). */
  testProcessor: TestProcessor | null;
  /** Pay by phone on the kiosk's screen: the cabinet's checkouts and the shopper's phone page. */
  kioskCheckouts: KioskCheckoutService;
  // outbound webhooks and alerts
  /** The webhook outbox alone (the test event, alert notifications). */
  outbox: WebhookEvents;
  /** What domains emit fleet events into, inside the transaction of the change: the outbox and the alert rules. */
  events: FleetEvents;
  /** Alert rules, alerts, and the alert loop's notifications (webhook and e-mail). */
  alerts: AlertsService;
  /** The presence sweep: machine.online / machine.offline once per change. */
  presence: PresenceService;
  /** DEX/EVA-DTS audit export and import. */
  dex: DexService;
  /** The delivery loop's work: signs and sends due deliveries, retries, disables failing endpoints. */
  webhookDelivery: WebhookDeliveryService;
  /** Operators' webhook endpoints, the test event and the deliveries log. */
  webhooks: WebhooksService;
  /** The background loops and their leader lease; started by main.ts (startJobs), read by the status endpoints. */
  jobs: Jobs;
  /** What this process holds for the fleet: held long polls, the device-key cache, the cross-replica pushes. */
  runtime: FleetRuntime;
}

/** The composition root: repositories, clock and collaborators go in as each service's named `Deps`, in dependency order. */
export function createServices(
  ctx: AppContext,
  opts: {
    webhookSender?: WebhookSender;
    webhookTimeoutMs?: number;
    alertMailer?: AlertMailer;
    geocoder?: Geocoder | null;
    /** A sandbox without its test payment processor: what a deployment with no processor answers (503s). */
    noPaymentProcessor?: boolean;
  } = {},
): Services {
  const store = createAppStore(ctx.database);
  const { clock, audit, config, rateLimiter, sealer } = ctx;
  const runtime = new FleetRuntime(ctx, store.repos.commands, opts.geocoder);
  const { devices } = runtime;
  const outbox = new WebhookEvents({ clock });
  const mail = mailSenderFor(config.mail);
  const alerts = new AlertsService({ store, clock, audit, outbox, mailer: opts.alertMailer ?? new MailSenderAlertMailer(mail), logger: ctx.logger });
  const events = new FleetEvents({ outbox, alerts });
  const presence = new PresenceService({ store, clock, events });
  const webhookDelivery = new WebhookDeliveryService({
    store,
    clock,
    sealer,
    logger: ctx.logger,
    sender: opts.webhookSender ?? new UndiciWebhookSender(),
    ...(opts.webhookTimeoutMs === undefined ? {} : { timeoutMs: opts.webhookTimeoutMs }),
  });

  const jwt = config.idp ? new IdpBearerVerifier(new IdentityTokenVerifier(config.idp, clock), store.repos.auth, config.rateLimitPerHour) : null;
  const auth = new AuthService({ store, clock, config, jwt });
  const sessionCsrf = new SessionCsrf(config.dataKey);
  const guards = { auth, sessionCsrf, rateLimiter };
  const routes: RouteKit = {
    docs: ctx.docs,
    access: (doc) => accessChain(guards, doc),
  };
  const social = config.social ? new IdentityTokenVerifier(config.social, clock) : null;

  const tax = new TaxService({ store, clock, audit });
  const machines = new MachinesService({ store, clock, audit, geocoder: runtime.geocoder, config, tax });
  const cabinetSettings = new CabinetSettingsService({ store, clock, audit, sealer, config });
  const inventory = new InventoryService({ store, audit, clock, events });
  const orders = new OrdersService({ store });
  const sales = new SalesService({ store, clock, audit, tax, events });
  const commands = new CommandsService({ store, clock, audit, sales, pending: runtime.pendingNotifier, events });

  const deviceKeys = new DeviceKeyVerifier({ store, clock, audit, devices });
  const enrolment = new EnrolmentService({ store, clock, audit, devices });
  const enrolmentModes = new EnrolmentModesService({ store, clock, audit });
  const upgradeOffers = new UpgradeOffersService({ store });
  const agentFleet = new AgentFleetService({ store, clock, offers: upgradeOffers });

  const creatives = new CreativesService({
    store,
    clock,
    config,
    media: new MediaStore(path.join(config.dataDir, 'media')),
    studio: config.studio ? new HttpStudio(config.studio) : null,
  });
  const campaignReports = new CampaignReportsService({ store, clock });
  const sspMock = new MockSspService({ store, clock, config });
  const supply = supplyFor(config, sspMock, ctx.logger);
  const adDelivery = new AdDeliveryService({ store, clock, logger: ctx.logger, supply, creativeUrl: (c) => mediaUrl(c.sha256, c.media_type as MediaType) });

  const campaigns = new CampaignsService({ store, clock, audit, creatives });
  const pricing = new PricingService({ clock });
  // Stripe when configured (issue 34), else the sandbox's test processor, else none (503): one processor for every place
  // that takes money; Stripe's events reach their place by the intent's webhook path (`paymentEvents`)
  const processors = paymentProcessorsFor({ store, clock, config }, opts.noPaymentProcessor);
  const paymentProcessor = processors.main;

  const payouts = new PayoutsService({ store, clock, audit });
  const crews = new CrewsService({ store, clock, audit });
  const restock = new RestockService({ store, clock, audit, crews });
  const seedSteps = sandboxSeedSteps(ctx.database.dialect, { creatives, tax, payouts, restock, dataKey: config.dataKey });
  const prizes = new PrizesService({ store, clock, audit });

  const credentialAdmin = new CredentialAdminService({ store, clock, audit, devices });
  const dfy = new DfyService({ store, clock, audit, machines, config, events, payments: { processor: processors.real, verifier: paymentProcessor } });
  const dfyInstall = new DfyInstallService({ store, clock, audit, events, machines, credentials: credentialAdmin });
  const dfyInventory = new DfyInventoryService({ store, clock, audit, settings: dfy, deals: dfy });
  const dfyModes = new DfyModesService({
    store,
    clock,
    audit,
    settings: dfy,
    onInventoryOff: (tx, machineId, now) => dfyInventory.cancelOpen(tx, machineId, now),
  });
  const negotiation = new NegotiationService({ store, clock, audit, dfy, config });
  const outreachChannels = outreachChannelsFor(config, mail);
  const outreach = new OutreachService({
    store,
    clock,
    audit,
    dfy,
    channels: outreachChannels,
    secrets: { token: config.dataKey, callback: config.outreachWebhookSecret },
    baseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
    replies: negotiation,
  });
  const dfyAutopilot = new DfyAutopilotService({ store, clock, dfy, outreach, negotiation, inventory: dfyInventory });

  const gateway = new GatewayService({ store, clock, audit, devices, creds: enrolment, settings: cabinetSettings, config, events });

  const { kioskRefunds, ...payments } = paymentServices(ctx, { store, mail, processors, campaigns, creatives, events, sales, commands, dfy });
  const { adPurchases, adReceipts } = payments;

  return {
    store,
    seedSteps,
    routes,
    auth,
    sessionCsrf,
    oauth: new OAuthService({ store, clock, audit, rateLimiter, config }),
    signIn: new SignInService({ store, clock, audit, rateLimiter, sealer, config, social }),
    accounts: new AccountsService({ store, clock, audit, config }),
    machines,
    cabinetSettings,
    operatorView: new OperatorViewService({ store, clock, machines, inventory, screenAds: campaignReports, prizes, config }),
    inventory,
    orders,
    sales,
    payments: new PaymentsService({ store, clock, audit, orders, sales, config }),
    commands,
    sandbox: new SandboxService({
      store,
      clock,
      audit,
      sealer,
      config,
      database: ctx.database,
      redis: ctx.redis,
      startedAt: ctx.startedAt,
      metrics: ctx.metrics,
      seedSteps,
      lifecycle: ctx.lifecycle,
    }),
    deviceKeys,
    enrolment,
    credentialAdmin,
    enrolmentModes,
    credentialFleet: new CredentialFleetService({ store, clock, modes: enrolmentModes }),
    factoryBuilds: new FactoryBuildsService({ store, clock, audit }),
    releaseRegistry: new ReleaseRegistryService({ store, clock, audit, config }),
    rollouts: new RolloutService({ store, clock, audit, offers: upgradeOffers }),
    upgradeOffers,
    agentFleet,
    gateway,
    dispenseReports: new DispenseReportsService({ store, clock, commands, sales }),
    pendingPoll: new PendingPollService({ clock, commands, notifier: runtime.pendingNotifier }),
    cabinetGuard: cabinetGuard(deviceKeys, gateway, config.fleetSecret),
    apk: new ApkService({ store, clock, gateway, ads: adDelivery }),
    creatives,
    campaigns,
    campaignReports,
    screensavers: new ScreensaversService({ store, clock, audit, creatives }),
    venues: new VenuesService({ store, clock, audit }),
    crews,
    restock,
    access: new AccessService({ store, clock, audit }),
    dfy,
    dfyInstall,
    dfyPortfolio: new DfyPortfolioService({ store, clock, audit, settings: dfy }),
    dfyModes,
    dfyInventory,
    dfyAutopilot,
    negotiation,
    outreach,
    outreachChannels,
    mail,
    entries: new EntriesService({ store, clock, audit }),
    payouts,
    pnl: new PnlService({ store, clock, payouts }),
    prizes,
    tax,
    adDelivery,
    proofOfPlay: new ProofOfPlayService({ store }),
    doohInventory: new DoohInventoryService({ store, clock }),
    sspMock,
    supply,
    pricing,
    marketplace: new MarketplaceService({ store, clock, audit, rateLimiter, pricing, creatives, processor: paymentProcessor, config, lines: adPurchases }),
    ...payments,
    testProcessor: processors.test,
    kioskCheckouts: new KioskCheckoutService({ store, clock, audit, processor: paymentProcessor, config }),
    outbox,
    events,
    alerts,
    presence,
    dex: new DexService({ store, clock }),
    webhookDelivery,
    webhooks: new WebhooksService({ store, clock, audit, sealer, events: outbox, delivery: webhookDelivery, config }),
    runtime,
    jobs: new Jobs({
      store,
      clock,
      audit,
      logger: ctx.logger,
      redis: ctx.redis,
      commands,
      releases: agentFleet,
      ads: adDelivery,
      dfy: dfyInstall,
      autopilot: dfyAutopilot,
      webhooks: webhookDelivery,
      events,
      presence,
      alerts,
      receipts: adReceipts,
      kioskRefunds,
      config,
    }),
  };
}

/**
 * Stops what the services hold, in the order a stop needs: held long polls answer first (with what the
 * store holds), then the background loops (the leader lease released), then the cross-replica pushes.
 * The store itself closes after (`closeContext`).
 */
export async function closeServices(services: Pick<Services, 'jobs' | 'runtime'>): Promise<void> {
  services.runtime.releaseHeld();
  await services.jobs.stop();
  await services.runtime.disconnect();
}
