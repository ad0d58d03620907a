import type { Insertable, Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, PrizeEventRow, PrizeEventsTable, PrizeMechanicRow } from '../../db/schema.ts';

/** Per machine (and mechanic) counts of accepted events in a window, with the accepted wins' prize cost. */
export interface EventTally {
  machine_id: string;
  mechanic: string | null;
  kind: string;
  n: number;
  prize_cents: number;
}

/** SQL of the prize game: the one writer of `prize_settings`, `prize_mechanics` and `prize_events`. */
export class PrizesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async settingsOf(machineId: string): Promise<{ budgetCents: number | null; updatedAt: number } | null> {
    const r = await this.db.selectFrom('prize_settings').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
    return r ? { budgetCents: r.monthly_budget_cents === null ? null : Number(r.monthly_budget_cents), updatedAt: Number(r.updated_at) } : null;
  }

  /**
   * The machine's settings row locked for the rest of the transaction (PostgreSQL; SQLite serialises
   * writers): judging a batch of events and recording them happen one batch at a time per machine,
   * so two batches can never both spend the last of a budget or cap.
   */
  async lockSettings(machineId: string): Promise<void> {
    if (this.dialect !== 'postgres') return;
    await this.db.selectFrom('prize_settings').select('machine_id').where('machine_id', '=', machineId).forUpdate().execute();
  }

  async mechanicsOf(machineIds: readonly string[]): Promise<PrizeMechanicRow[]> {
    if (machineIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('prize_mechanics')
      .selectAll()
      .where('machine_id', 'in', machineIds)
      .orderBy('machine_id')
      .orderBy('mechanic')
      .execute();
    return rows.map((r) => ({ ...r, max_prize_cents: r.max_prize_cents === null ? null : Number(r.max_prize_cents) }));
  }

  /** Budgets of these machines (those with settings). */
  async budgetsOf(machineIds: readonly string[]): Promise<Map<string, number | null>> {
    if (machineIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('prize_settings').select(['machine_id', 'monthly_budget_cents']).where('machine_id', 'in', machineIds).execute();
    return new Map(rows.map((r) => [r.machine_id, r.monthly_budget_cents === null ? null : Number(r.monthly_budget_cents)]));
  }

  /** Replaces the machine's settings whole: the budget and every mechanic. */
  async replaceSettings(
    machineId: string,
    budgetCents: number | null,
    mechanics: readonly { mechanic: string; enabled: boolean; maxWinsPerDay: number | null; maxPrizeCents: number | null }[],
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto('prize_settings')
      .values({ machine_id: machineId, monthly_budget_cents: budgetCents, updated_at: now })
      .onConflict((oc) => oc.column('machine_id').doUpdateSet({ monthly_budget_cents: budgetCents, updated_at: now }))
      .execute();
    await this.db.deleteFrom('prize_mechanics').where('machine_id', '=', machineId).execute();
    if (mechanics.length === 0) return;
    await this.db
      .insertInto('prize_mechanics')
      .values(
        mechanics.map((m) => ({
          machine_id: machineId,
          mechanic: m.mechanic,
          enabled: m.enabled ? 1 : 0,
          max_wins_per_day: m.maxWinsPerDay,
          max_prize_cents: m.maxPrizeCents,
        })),
      )
      .execute();
  }

  /** The events of this machine already recorded under these ids. */
  async eventsByIds(machineId: string, eventIds: readonly string[]): Promise<PrizeEventRow[]> {
    if (eventIds.length === 0) return [];
    const out: PrizeEventRow[] = [];
    for (let i = 0; i < eventIds.length; i += 500)
      out.push(
        ...(await this.db
          .selectFrom('prize_events')
          .selectAll()
          .where('machine_id', '=', machineId)
          .where('event_id', 'in', eventIds.slice(i, i + 500))
          .execute()),
      );
    return out;
  }

  /** Records one event once; false when the machine already has one under this id. */
  async insertEvent(row: Insertable<PrizeEventsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('prize_events')
      .values(row)
      .onConflict((oc) => oc.columns(['machine_id', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Many events at once (the sandbox seed), in chunks the drivers' parameter limits allow. */
  async insertEvents(rows: Insertable<PrizeEventsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 400)
      await this.db
        .insertInto('prize_events')
        .values(rows.slice(i, i + 400))
        .execute();
  }

  /** Accepted wins of one mechanic of a machine in `[from, to)`. */
  async winsBetween(machineId: string, mechanic: string, from: number, to: number): Promise<number> {
    const r = await this.db
      .selectFrom('prize_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', machineId)
      .where('mechanic', '=', mechanic)
      .where('kind', '=', 'win')
      .where('refusal', 'is', null)
      .where('at', '>=', from)
      .where('at', '<', to)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Prize cost of the accepted wins of these machines in `[from, to)`, per machine. */
  async spentBetween(machineIds: readonly string[], from: number, to: number): Promise<Map<string, number>> {
    if (machineIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('prize_events')
      .select((eb) => ['machine_id', eb.fn.coalesce(eb.fn.sum<number>('prize_cents'), eb.lit(0)).as('spent')])
      .where('machine_id', 'in', machineIds)
      .where('kind', '=', 'win')
      .where('refusal', 'is', null)
      .where('at', '>=', from)
      .where('at', '<', to)
      .groupBy('machine_id')
      .execute();
    return new Map(rows.map((r) => [r.machine_id, Number(r.spent)]));
  }

  /** Accepted events of these machines in `[from, to)`, counted per machine, mechanic and kind. */
  async tally(machineIds: readonly string[], from: number, to: number): Promise<EventTally[]> {
    if (machineIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('prize_events')
      .select((eb) => [
        'machine_id',
        'mechanic',
        'kind',
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('prize_cents'), eb.lit(0)).as('prize_cents'),
      ])
      .where('machine_id', 'in', machineIds)
      .where('refusal', 'is', null)
      .where('at', '>=', from)
      .where('at', '<', to)
      .groupBy(['machine_id', 'mechanic', 'kind'])
      .execute();
    return rows.map((r) => ({ machine_id: r.machine_id, mechanic: r.mechanic, kind: r.kind, n: Number(r.n), prize_cents: Number(r.prize_cents) }));
  }

  /** Refused events of these machines in `[from, to)`, counted per reason. */
  async refusals(machineIds: readonly string[], from: number, to: number): Promise<{ refusal: string; n: number }[]> {
    if (machineIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('prize_events')
      .select((eb) => ['refusal', eb.fn.countAll<number>().as('n')])
      .where('machine_id', 'in', machineIds)
      .where('refusal', 'is not', null)
      .where('at', '>=', from)
      .where('at', '<', to)
      .groupBy('refusal')
      .execute();
    return rows.map((r) => ({ refusal: r.refusal!, n: Number(r.n) }));
  }

  /**
   * The machines a report covers: the operator's (every operator's for null) that have prize settings
   * or reported an event in `[from, to)`; one machine when `machineId` is given.
   */
  async gameMachines(
    operatorId: string | null,
    from: number,
    to: number,
    machineId?: string,
  ): Promise<{ id: string; machine_no: string; operator_id: string | null }[]> {
    const withEvents = this.db.selectFrom('prize_events').select('machine_id').where('at', '>=', from).where('at', '<', to);
    const withSettings = this.db.selectFrom('prize_settings').select('machine_id');
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'operator_id'])
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .$if(machineId !== undefined, (q) => q.where('id', '=', machineId!))
      .where((eb) => eb.or([eb('id', 'in', withEvents), eb('id', 'in', withSettings)]))
      .orderBy('machine_no')
      .execute();
  }

  /** Shipped sales of these machines in `[from, to)`: charged cents per machine (refunded sales excluded). */
  async salesBetween(machineIds: readonly string[], from: number, to: number): Promise<Map<string, number>> {
    if (machineIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('orders')
      .select((eb) => ['machine_id', eb.fn.coalesce(eb.fn.sum<number>('charged_cents'), eb.lit(0)).as('gross')])
      .where('machine_id', 'in', machineIds)
      .where('pay_status', '=', 'shipped')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('machine_id')
      .execute();
    return new Map(rows.map((r) => [r.machine_id, Number(r.gross)]));
  }

  /**
   * What a product prize from this aisle costs now: the unit cost of the oldest layer with units left
   * of the aisle's SKU among the operator's layers (the layer the free vend will draw); 0 when the aisle
   * has no SKU or no layer is left (FIFO cost is zero until a purchase order is received).
   */
  async productPrizeCents(machineId: string, operatorId: string | null, aisleNo: number): Promise<number> {
    if (operatorId === null) return 0;
    const aisle = await this.db.selectFrom('aisles').select('sku').where('machine_id', '=', machineId).where('aisle_no', '=', aisleNo).executeTakeFirst();
    if (!aisle?.sku) return 0;
    const lot = await this.db
      .selectFrom('lots')
      .select('unit_cost_cents')
      .where('operator_id', '=', operatorId)
      .where('sku', '=', aisle.sku)
      .where('qty_remaining', '>', 0)
      .orderBy('received_at')
      .orderBy('line_no')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return lot ? Number(lot.unit_cost_cents) : 0;
  }

  /**
   * The free-product program of one machine since `from`: reward drops (remote drops that shipped free,
   * spec 1 §2.3/§2.4) and what their units cost (their FIFO draws).
   */
  async freeDrops(machineId: string, from: number): Promise<{ drops: number; costCents: number }> {
    const free = () =>
      this.db
        .selectFrom('orders')
        .where('machine_id', '=', machineId)
        .where('channel', '=', 'api_drop')
        .where('paid_cents', '=', 0)
        .where('pay_status', '=', 'shipped')
        .where('created_at', '>=', from);
    const [count, cost] = await Promise.all([
      free()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('lot_consumptions')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cost_cents'), eb.lit(0)).as('cost'))
        .where('order_number', 'in', free().select('order_number'))
        .executeTakeFirstOrThrow(),
    ]);
    return { drops: Number(count.n), costCents: Number(cost.cost) };
  }
}
