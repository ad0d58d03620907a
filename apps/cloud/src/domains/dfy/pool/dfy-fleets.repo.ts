import type { Insertable, Kysely } from 'kysely';
import type { Dialect } from '../../../db/database.ts';
import type {
  DB,
  DfyPoolAllocationRow,
  DfyPoolAllocationsTable,
  DfyPoolEventRow,
  DfyPoolInvestmentRow,
  DfyPoolInvestmentsTable,
  DfyPoolRow,
} from '../../../db/schema.ts';

/** How many investments and allocations the pool's history shows (newest first). */
export const HISTORY_LIMIT = 200;

/**
 * SQL of the DFY investment pool: the one writer of `dfy_pools`, `dfy_pool_investments`,
 * `dfy_pool_allocations` and `dfy_pool_events`. Balances move by relative updates on the locked pool row,
 * so concurrent payments of one operator add up instead of overwriting each other.
 */
export class DfyFleetsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The operator's pool row, created empty (target `tier`) if it does not exist yet. */
  async ensurePool(operatorId: string, tier: string, now: number): Promise<void> {
    await this.db
      .insertInto('dfy_pools')
      .values({ operator_id: operatorId, balance_cents: 0, invested_cents: 0, machines_funded: 0, target_tier: tier, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('operator_id').doNothing())
      .execute();
  }

  pool(operatorId: string): Promise<DfyPoolRow | undefined> {
    return this.db.selectFrom('dfy_pools').selectAll().where('operator_id', '=', operatorId).executeTakeFirst();
  }

  /** The pool row locked for the transaction (PostgreSQL; SQLite serialises writers). */
  lockPool(operatorId: string): Promise<DfyPoolRow | undefined> {
    return this.db
      .selectFrom('dfy_pools')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async setTarget(operatorId: string, tier: string, now: number): Promise<void> {
    await this.db.updateTable('dfy_pools').set({ target_tier: tier, updated_at: now }).where('operator_id', '=', operatorId).execute();
  }

  /** Adds to the balance (and to what was invested, for an investment); negative `cents` spends. */
  async move(operatorId: string, cents: number, change: { invested?: number; funded?: number }, now: number): Promise<void> {
    await this.db
      .updateTable('dfy_pools')
      .set((eb) => ({
        balance_cents: eb('balance_cents', '+', cents),
        invested_cents: eb('invested_cents', '+', change.invested ?? 0),
        machines_funded: eb('machines_funded', '+', change.funded ?? 0),
        updated_at: now,
      }))
      .where('operator_id', '=', operatorId)
      .execute();
  }

  // ---- investments

  async insertInvestment(row: Insertable<DfyPoolInvestmentsTable>): Promise<void> {
    await this.db.insertInto('dfy_pool_investments').values(row).execute();
  }

  investment(id: string): Promise<DfyPoolInvestmentRow | undefined> {
    return this.db.selectFrom('dfy_pool_investments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** awaiting_payment → paid, once; false when it was already paid (by another event). */
  async markPaid(id: string, eventId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_pool_investments')
      .set({ status: 'paid', event_id: eventId, paid_at: now })
      .where('id', '=', id)
      .where('status', '=', 'awaiting_payment')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  investmentsOf(operatorId: string): Promise<DfyPoolInvestmentRow[]> {
    return this.db
      .selectFrom('dfy_pool_investments')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute();
  }

  // ---- allocations

  async insertAllocation(row: Insertable<DfyPoolAllocationsTable>): Promise<void> {
    await this.db.insertInto('dfy_pool_allocations').values(row).execute();
  }

  allocationsOf(operatorId: string): Promise<DfyPoolAllocationRow[]> {
    return this.db
      .selectFrom('dfy_pool_allocations')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute();
  }

  /**
   * A pool-funded deal refunded before shipping: its allocation is marked returned and its price goes back to
   * the operator's balance (no longer counted as funded), once. Answers the cents returned (0: nothing to return).
   */
  async returnDeal(operatorId: string, dealId: string, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('dfy_pool_allocations')
      .selectAll()
      .where('deal_id', '=', dealId)
      .where('operator_id', '=', operatorId)
      .where('returned_at', 'is', null)
      .executeTakeFirst();
    if (!row) return 0;
    const r = await this.db
      .updateTable('dfy_pool_allocations')
      .set({ returned_at: now })
      .where('id', '=', row.id)
      .where('returned_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return 0;
    await this.move(operatorId, Number(row.amount_cents), { funded: -1 }, now);
    return Number(row.amount_cents);
  }

  // ---- processor events

  /** Records a processor event id; false when it was already recorded (a replay). The primary key decides, not a read. */
  async claimEvent(row: DfyPoolEventRow): Promise<boolean> {
    const r = await this.db
      .insertInto('dfy_pool_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
}
