import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Sealer } from '../../crypto/secrets.ts';
import { clearStore } from '../../db/reset.ts';
import { SEED_ORDER_PREFIX, seedSandbox, type SeedStep } from '../../db/seed.ts';

/**
 * The sandbox's reach into the store: counts for its reports, and the store-level seed and clear
 * (db/seed.ts, db/reset.ts) a reset runs in one transaction.
 */
export class SandboxRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async count(table: keyof DB): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async datasetCounts() {
    const [operators, machines, aisles, orders] = await Promise.all([
      this.count('operators'),
      this.count('machines'),
      this.count('aisles'),
      this.count('orders'),
    ]);
    return { operators, machines, aisles, orders };
  }

  /** Orders written after seeding (by cabinets, drops, webhooks): the money records a reset re-applies. */
  nonSeedOrders() {
    return this.db.selectFrom('orders').selectAll().where('order_number', 'not like', `${SEED_ORDER_PREFIX}%`).execute();
  }

  /** Empties every table a reset clears (the audit log stays). */
  clear(): Promise<void> {
    return clearStore(this.db);
  }

  /** Writes the seed data set, each domain's step included. */
  seed(now: number, sealer: Sealer, steps: readonly SeedStep[]): Promise<void> {
    return seedSandbox(this.db, now, sealer, steps);
  }

  machineOwners() {
    return this.db.selectFrom('machines').select(['id', 'operator_id']).execute();
  }
}
