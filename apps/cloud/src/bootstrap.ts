import type { AppContext } from './context.ts';
import { seedSandbox } from './db/seed.ts';
import { SandboxRepo } from './domains/sandbox/sandbox.repo.ts';

/** Sandbox mode seeds the deterministic data set into an empty store; production seeds nothing. */
export async function seedIfEmpty(ctx: AppContext): Promise<boolean> {
  if (ctx.config.mode !== 'sandbox') return false;
  if ((await new SandboxRepo(ctx.database.db).count('operators')) > 0) return false;
  await ctx.database.db.transaction().execute((trx) => seedSandbox(trx, ctx.clock.now(), ctx.sealer));
  return true;
}
