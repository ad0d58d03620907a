import type { Insertable, Kysely } from 'kysely';
import type { DB, FinanceEntriesTable, FinanceEntryRow } from '../../db/schema.ts';

/** Which entries a read covers. Dates are YYYY-MM-DD, both ends inclusive; null bounds are open. */
export interface EntryFilter {
  /** One operator's entries; null for every operator's (admin). */
  ownerId: string | null;
  kind: string | null;
  fromDay: string | null;
  toDay: string | null;
  machineId: string | null;
  venueId: string | null;
}

export type EntryView = FinanceEntryRow & { machine_no: string | null; venue_name: string | null; reversed_by: string | null; operator_email: string | null };

/**
 * SQL of the finance ledger: the one writer of `finance_entries`, and the reads the P&L and balance
 * sheet make of tables other domains write (`lot_consumptions`, `lots`; joins and sums only).
 */
export class LedgerRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insertEntry(row: Insertable<FinanceEntriesTable>): Promise<void> {
    await this.db.insertInto('finance_entries').values(row).execute();
  }

  private filtered(f: EntryFilter) {
    return this.db
      .selectFrom('finance_entries as e')
      .$if(f.ownerId !== null, (q) => q.where('e.operator_id', '=', f.ownerId!))
      .$if(f.kind !== null, (q) => q.where('e.kind', '=', f.kind!))
      .$if(f.fromDay !== null, (q) => q.where('e.occurred_on', '>=', f.fromDay!))
      .$if(f.toDay !== null, (q) => q.where('e.occurred_on', '<=', f.toDay!))
      .$if(f.machineId !== null, (q) => q.where('e.machine_id', '=', f.machineId!))
      .$if(f.venueId !== null, (q) => q.where('e.venue_id', '=', f.venueId!));
  }

  private view(f: EntryFilter) {
    return this.filtered(f)
      .leftJoin('machines as m', 'm.id', 'e.machine_id')
      .leftJoin('venues as v', 'v.id', 'e.venue_id')
      .leftJoin('finance_entries as r', 'r.reverses_id', 'e.id')
      .leftJoin('operators as o', 'o.id', 'e.operator_id')
      .selectAll('e')
      .select(['m.machine_no', 'v.name as venue_name', 'r.id as reversed_by', 'o.email as operator_email']);
  }

  /** Newest day first, then newest recorded first. */
  async page(f: EntryFilter, limit: number, offset: number): Promise<{ total: number; rows: EntryView[] }> {
    const { n } = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.view(f)
      .orderBy('e.occurred_on', 'desc')
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows: rows.map(numeric) };
  }

  async entry(id: string): Promise<EntryView | undefined> {
    const row = await this.view({ ownerId: null, kind: null, fromDay: null, toDay: null, machineId: null, venueId: null })
      .where('e.id', '=', id)
      .executeTakeFirst();
    return row && numeric(row);
  }

  /** The sum of the filtered entries per kind (reversals included, so a reversed entry nets to zero). */
  async totalsByKind(f: EntryFilter): Promise<Map<string, number>> {
    const rows = await this.filtered(f)
      .select((eb) => ['e.kind', eb.fn.sum<number>('e.amount_cents').as('cents')])
      .groupBy('e.kind')
      .execute();
    return new Map(rows.map((r) => [r.kind, Number(r.cents)]));
  }

  /** FIFO cost drawn by sales in `[from, until)` (`consumed_at`, the sale's time), of one operator and/or one machine. */
  async fifoCogs(ownerId: string | null, machineId: string | null, from: number, until: number): Promise<number> {
    const { cents } = await this.db
      .selectFrom('lot_consumptions')
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId!))
      .$if(machineId !== null, (q) => q.where('machine_id', '=', machineId!))
      .where('consumed_at', '>=', from)
      .where('consumed_at', '<', until)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cost_cents'), eb.lit(0)).as('cents'))
      .executeTakeFirstOrThrow();
    return Number(cents);
  }

  /** The cost of every layer received before `until`: what the operator paid for stock. */
  async receivedCost(ownerId: string | null, until: number): Promise<number> {
    const { cents } = await this.db
      .selectFrom('lots')
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId!))
      .where('received_at', '<', until)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('qty_received', '*', eb.ref('unit_cost_cents'))), eb.lit(0)).as('cents'))
      .executeTakeFirstOrThrow();
    return Number(cents);
  }

  /** Machine ids by code (the stays of a venue name machines by code). */
  async machineIds(machineNos: readonly string[]): Promise<Map<string, string>> {
    if (machineNos.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('machines')
      .select(['id', 'machine_no'])
      .where('machine_no', 'in', [...machineNos])
      .execute();
    return new Map(rows.map((r) => [r.machine_no, r.id]));
  }

  /** Tax remitted to the authorities before `until` (`tax_remittances`, written by the tax domain), in cents. */
  async taxRemittedCents(ownerId: string | null, until: number): Promise<number> {
    const { cents } = await this.db
      .selectFrom('tax_remittances')
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId!))
      .where('remitted_at', '<', until)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('tax_cents'), eb.lit(0)).as('cents'))
      .executeTakeFirstOrThrow();
    return Number(cents);
  }
}

function numeric(r: EntryView): EntryView {
  return { ...r, amount_cents: Number(r.amount_cents), created_at: Number(r.created_at) };
}
