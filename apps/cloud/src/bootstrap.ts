import type { AppContext } from './context.ts';
import type { Dialect } from './db/database.ts';
import type { SeedStep } from './db/seed.ts';
import { Repos, createAppStore } from './repos.ts';
import { seedEnrolmentArms } from './domains/device-credentials/sandbox-seed.ts';

/** Each domain's part of the sandbox data set, handed to the store's seeder (which knows no domain). */
export function sandboxSeedSteps(dialect: Dialect): SeedStep[] {
  return [(db, now) => seedEnrolmentArms(new Repos(db, dialect), now)];
}

/** Sandbox mode seeds the deterministic data set into an empty store; production seeds nothing. */
export async function seedIfEmpty(ctx: AppContext): Promise<boolean> {
  if (ctx.config.mode !== 'sandbox') return false;
  const store = createAppStore(ctx.database);
  if ((await store.repos.sandbox.count('operators')) > 0) return false;
  await store.transaction((tx) => tx.sandbox.seed(ctx.clock.now(), ctx.sealer, sandboxSeedSteps(ctx.database.dialect)));
  return true;
}
