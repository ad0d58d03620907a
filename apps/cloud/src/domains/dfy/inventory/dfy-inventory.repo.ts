import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/database.ts';
import type { DB, DfySupplierOrderRow } from '../../../db/schema.ts';

export const OPEN_ORDER_STATUSES = ['queued', 'pending_approval'] as const;

/** SQL of DFY inventory automation: the one writer of `dfy_supplier_orders`. */
export class DfyInventoryRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: DfySupplierOrderRow): Promise<void> {
    await this.db.insertInto('dfy_supplier_orders').values(row).execute();
  }

  lock(id: string): Promise<DfySupplierOrderRow | undefined> {
    return this.db
      .selectFrom('dfy_supplier_orders')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  openOf(machineId: string): Promise<DfySupplierOrderRow | undefined> {
    return this.db
      .selectFrom('dfy_supplier_orders')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('status', 'in', OPEN_ORDER_STATUSES)
      .executeTakeFirst();
  }

  /** What the machine's orders since `since` cost (actual once received, else estimated), cancelled ones aside. */
  async spentSince(machineId: string, since: number): Promise<number> {
    const rows = await this.db
      .selectFrom('dfy_supplier_orders')
      .select(['estimated_cost_cents', 'actual_cost_cents'])
      .where('machine_id', '=', machineId)
      .where('status', '!=', 'cancelled')
      .where('created_at', '>=', since)
      .execute();
    return rows.reduce((n, r) => n + Number(r.actual_cost_cents ?? r.estimated_cost_cents), 0);
  }

  /** Moves an order from `from` to `to`; false when it was not at `from` (a concurrent change). */
  async shift(
    id: string,
    from: string,
    set: Partial<Pick<DfySupplierOrderRow, 'status' | 'actual_cost_cents' | 'purchase_order_id'>> & { updated_at: number },
  ): Promise<boolean> {
    const r = await this.db.updateTable('dfy_supplier_orders').set(set).where('id', '=', id).where('status', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Cancels the machine's open orders; answers them. */
  async cancelOpen(machineId: string, now: number): Promise<DfySupplierOrderRow[]> {
    const open = await this.db
      .selectFrom('dfy_supplier_orders')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('status', 'in', OPEN_ORDER_STATUSES)
      .execute();
    if (open.length)
      await this.db
        .updateTable('dfy_supplier_orders')
        .set({ status: 'cancelled', updated_at: now })
        .where('machine_id', '=', machineId)
        .where('status', 'in', OPEN_ORDER_STATUSES)
        .execute();
    return open;
  }

  /** Per machine of the operator: supplier orders since `since` (cancelled aside), total and actual-only cents. */
  async costsSince(operatorId: string, since: number): Promise<Map<string, { cents: number; actualCents: number; estimate: boolean }>> {
    const rows = await this.db
      .selectFrom('dfy_supplier_orders')
      .select(['machine_id', 'estimated_cost_cents', 'actual_cost_cents'])
      .where('operator_id', '=', operatorId)
      .where('status', '!=', 'cancelled')
      .where('created_at', '>=', since)
      .execute();
    const out = new Map<string, { cents: number; actualCents: number; estimate: boolean }>();
    for (const r of rows) {
      const m = out.get(r.machine_id) ?? { cents: 0, actualCents: 0, estimate: false };
      const actual = r.actual_cost_cents === null ? null : Number(r.actual_cost_cents);
      m.cents += actual ?? Number(r.estimated_cost_cents);
      m.actualCents += actual ?? 0;
      m.estimate ||= actual === null;
      out.set(r.machine_id, m);
    }
    return out;
  }
}
