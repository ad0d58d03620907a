import type { AppContext } from './context.ts';
import type { Dialect } from './db/database.ts';
import type { SeedStep } from './db/seed.ts';
import { Repos, createAppStore } from './repos.ts';
import { seedEnrolmentArms } from './domains/device-credentials/sandbox-seed.ts';
import { seedScreenAds } from './domains/campaigns/sandbox-seed.ts';
import { seedFinance } from './domains/finance/sandbox-seed.ts';
import { seedPrizeGame } from './domains/prizes/sandbox-seed.ts';
import { seedRestock } from './domains/restock/sandbox-seed.ts';
import { seedAccess } from './domains/access/sandbox-seed.ts';
import { seedDfy } from './domains/dfy/deals/sandbox-seed.ts';
import { seedNegotiation } from './domains/negotiation/sandbox-seed.ts';
import { seedOutreach } from './domains/outreach/sandbox-seed.ts';
import { seedAdPurchases } from './domains/ad-purchases/sandbox-seed.ts';
import type { CreativesService } from './domains/creatives/creatives.service.ts';
import type { PayoutsService } from './domains/finance/payouts.service.ts';
import type { RestockService } from './domains/restock/restock.service.ts';
import type { TaxService } from './domains/tax/tax.service.ts';

/**
 * What the domains' seed steps need besides the store: the creatives service renders the seed's poster;
 * the finance seed remits a period and pays a host statement, and the restock seed plans its run, through
 * the same operations the API uses.
 */
export interface SeedDeps {
  creatives: Pick<CreativesService, 'builtin' | 'row'>;
  tax: Pick<TaxService, 'recordRemittance'>;
  payouts: Pick<PayoutsService, 'freezeStatement'>;
  restock: Pick<RestockService, 'planRun'>;
  /** Seals the seed purchase's status token like any purchase's. */
  dataKey: string;
}

/** Each domain's part of the sandbox data set, handed to the store's seeder (which knows no domain). */
export function sandboxSeedSteps(dialect: Dialect, deps: SeedDeps): SeedStep[] {
  return [
    (db, now) => seedEnrolmentArms(new Repos(db, dialect), now),
    (db, now) => seedScreenAds(new Repos(db, dialect), now, deps.creatives),
    (db, now) => seedFinance(new Repos(db, dialect), now, deps),
    (db, now) => seedPrizeGame(new Repos(db, dialect), now),
    (db, now) => seedRestock(new Repos(db, dialect), now, deps),
    (db, now) => seedAccess(new Repos(db, dialect), now),
    (db, now) => seedDfy(new Repos(db, dialect), now),
    (db, now) => seedNegotiation(new Repos(db, dialect), now),
    (db, now) => seedOutreach(new Repos(db, dialect), now),
    (db, now) => seedAdPurchases(new Repos(db, dialect), now, deps),
  ];
}

/**
 * Sandbox mode seeds the deterministic data set into an empty store; production seeds nothing.
 * `steps`: the domains' parts, from the composition root (`services.seedSteps`).
 */
export async function seedIfEmpty(ctx: AppContext, steps: readonly SeedStep[]): Promise<boolean> {
  if (ctx.config.mode !== 'sandbox') return false;
  const store = createAppStore(ctx.database);
  if ((await store.repos.sandbox.count('operators')) > 0) return false;
  await store.transaction((tx) => tx.sandbox.seed(ctx.clock.now(), ctx.sealer, steps));
  return true;
}
