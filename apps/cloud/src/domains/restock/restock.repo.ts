import type { Insertable, Kysely } from 'kysely';
import type { DB, RestockRunLineRow, RestockRunLinesTable, RestockRunRow, RestockRunsTable } from '../../db/schema.ts';
import { OPEN_STATUSES, type RunStatus } from './restock.rules.ts';

/** Who moved a run and when, per step. */
export type RunStamps = Partial<
  Pick<RestockRunRow, 'started_by' | 'started_at' | 'completed_by' | 'completed_at' | 'cancelled_by' | 'cancelled_at' | 'cancel_reason'>
>;

export interface RunFilter {
  /** The crews whose runs to list (the caller's). */
  crewIds: string[];
  status?: RunStatus | undefined;
  machineNo?: string | undefined;
}

/** SQL of the restock domain: the one writer of `restock_runs` and `restock_run_lines`. */
export class RestockRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Inserts a run and its lines. A second open run for the machine is a unique violation (`restock_runs_open_machine`). */
  async insertRun(run: Insertable<RestockRunsTable>, lines: Insertable<RestockRunLinesTable>[]): Promise<void> {
    await this.db.insertInto('restock_runs').values(run).execute();
    if (lines.length) await this.db.insertInto('restock_run_lines').values(lines).execute();
  }

  run(id: string): Promise<RestockRunRow | undefined> {
    return this.db.selectFrom('restock_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The machine's open run (planned or in progress), if any. */
  openRunOf(machineId: string): Promise<RestockRunRow | undefined> {
    return this.db.selectFrom('restock_runs').selectAll().where('machine_id', '=', machineId).where('status', 'in', OPEN_STATUSES).executeTakeFirst();
  }

  /** The lines of these runs, by run, then aisle. */
  linesOf(runIds: string[]): Promise<RestockRunLineRow[]> {
    if (runIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('restock_run_lines').selectAll().where('run_id', 'in', runIds).orderBy('run_id').orderBy('aisle_no').execute();
  }

  /** Runs of the given crews, newest first. */
  async list(f: RunFilter, limit: number, offset: number): Promise<{ total: number; rows: RestockRunRow[] }> {
    if (f.crewIds.length === 0) return { total: 0, rows: [] };
    const base = this.db
      .selectFrom('restock_runs')
      .where('crew_id', 'in', f.crewIds)
      .$if(f.status !== undefined, (q) => q.where('status', '=', f.status!))
      .$if(f.machineNo !== undefined, (q) => q.where('machine_no', '=', f.machineNo!));
    const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { total: Number(n), rows };
  }

  /**
   * Moves the run to `to` only while it is in one of `from`, in one conditional UPDATE, stamping who and
   * when (`startIfNot`: the start stamp too, where the run has none: completing implies starting). False
   * when it was not in `from` (another request moved it first). On PostgreSQL a concurrent mover blocks on
   * the row until the first commits, then matches nothing.
   */
  async move(id: string, from: readonly RunStatus[], to: RunStatus, set: RunStamps & { startIfNot?: { by: string; at: number } }): Promise<boolean> {
    const { startIfNot, ...stamps } = set;
    const r = await this.db
      .updateTable('restock_runs')
      .set((eb) => ({
        ...stamps,
        status: to,
        ...(startIfNot
          ? {
              started_by: eb.fn.coalesce('started_by', eb.val(startIfNot.by)),
              started_at: eb.fn.coalesce('started_at', eb.val(startIfNot.at)),
            }
          : {}),
      }))
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Records what went into one aisle and the stock it was left with. */
  async recordFill(runId: string, aisleNo: number, filled: number, stockAfter: number): Promise<void> {
    await this.db
      .updateTable('restock_run_lines')
      .set({ filled, stock_after: stockAfter })
      .where('run_id', '=', runId)
      .where('aisle_no', '=', aisleNo)
      .execute();
  }
}
