import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { RESET_ORDER } from '../../db/tables.ts';
import { SEED_ORDER_PREFIX } from '../../db/seed.ts';

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

  async wipe(): Promise<void> {
    for (const table of RESET_ORDER) await this.db.deleteFrom(table).execute();
  }

  machineOwners() {
    return this.db.selectFrom('machines').select(['id', 'operator_id']).execute();
  }
}
