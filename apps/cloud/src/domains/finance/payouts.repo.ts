import type { Insertable, Kysely } from 'kysely';
import type { DB, HostPayoutLineRow, HostPayoutLinesTable, HostPayoutRow, HostPayoutsTable } from '../../db/schema.ts';
import type { Period } from '../calendar/period.ts';

/** SQL of host payouts: the one writer of `host_payouts` and `host_payout_lines` (frozen statements). */
export class PayoutsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** A paid statement and its lines, in one call inside the caller's transaction. */
  async insert(payout: Insertable<HostPayoutsTable>, lines: Insertable<HostPayoutLinesTable>[]): Promise<void> {
    await this.db.insertInto('host_payouts').values(payout).execute();
    for (let i = 0; i < lines.length; i += 200)
      await this.db
        .insertInto('host_payout_lines')
        .values(lines.slice(i, i + 200))
        .execute();
  }

  /** The paid statements of these venues for these periods (all periods when `periods` is null). */
  async payouts(venueIds: readonly string[], periods: readonly Period[] | null): Promise<HostPayoutRow[]> {
    if (venueIds.length === 0 || periods?.length === 0) return [];
    const rows = await this.db
      .selectFrom('host_payouts')
      .selectAll()
      .where('venue_id', 'in', [...venueIds])
      .$if(periods !== null, (q) => q.where('period', 'in', [...periods!]))
      .orderBy('period')
      .orderBy('venue_id')
      .execute();
    return rows.map((r) => ({ ...r, total_cents: Number(r.total_cents), paid_at: Number(r.paid_at) }));
  }

  async lines(payoutIds: readonly string[]): Promise<HostPayoutLineRow[]> {
    if (payoutIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('host_payout_lines')
      .selectAll()
      .where('payout_id', 'in', [...payoutIds])
      .orderBy('payout_id')
      .orderBy('line_no')
      .execute();
    return rows.map((r) => ({
      ...r,
      commission_from: Number(r.commission_from),
      window_from: Number(r.window_from),
      window_to: Number(r.window_to),
      net_cents: Number(r.net_cents),
      share_cents: Number(r.share_cents),
    }));
  }

  /** What was paid to hosts before `until`, in cents. */
  async paidCents(ownerId: string | null, until: number): Promise<number> {
    const { cents } = await this.db
      .selectFrom('host_payouts')
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId!))
      .where('paid_at', '<', until)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total_cents'), eb.lit(0)).as('cents'))
      .executeTakeFirstOrThrow();
    return Number(cents);
  }

  /**
   * The periods (YYYY-MM, oldest first) in which the machine was on a paid host statement: closed to
   * tax restatement (the contract with the tax schedules: a `host_payout_lines` row with that
   * `machine_id` and `period`).
   */
  async paidOutPeriodsOf(machineId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('host_payout_lines').select('period').distinct().where('machine_id', '=', machineId).orderBy('period').execute();
    return rows.map((r) => r.period);
  }
}
