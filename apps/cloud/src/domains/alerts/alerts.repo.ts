import type { Kysely } from 'kysely';
import type { AlertRow, AlertRuleRow, DB } from '../../db/schema.ts';

/** A machine whose presence changed (or was never recorded) since the last sweep. */
export interface PresenceChange {
  machine_id: string;
  machine_no: string;
  operator_id: string;
  last_seen: number;
  state: string | null;
}

/** SQL of the alerts domain: the one writer of `machine_presence`, `alert_rules` and `alerts`. */
export class AlertsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  // ---- presence

  /**
   * Owned, live machines seen at least once whose presence differs from what was last recorded:
   * recorded online but unseen since `cutoff`, recorded offline but seen since, or never recorded.
   */
  presenceChanges(cutoff: number, limit: number): Promise<PresenceChange[]> {
    return this.db
      .selectFrom('machines as m')
      .leftJoin('machine_presence as p', 'p.machine_id', 'm.id')
      .select(['m.id as machine_id', 'm.machine_no', 'm.operator_id', 'm.last_seen', 'p.state'])
      .where('m.operator_id', 'is not', null)
      .where('m.retired_at', 'is', null)
      .where('m.last_seen', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('p.state', 'is', null),
          eb.and([eb('p.state', '=', 'online'), eb('m.last_seen', '<', cutoff)]),
          eb.and([eb('p.state', '=', 'offline'), eb('m.last_seen', '>=', cutoff)]),
        ]),
      )
      .orderBy('m.last_seen')
      .limit(limit)
      .execute() as Promise<PresenceChange[]>;
  }

  /**
   * Records the first state of machines never recorded, in one statement; answers the ids it inserted
   * (one another sweep recorded first is left as that sweep wrote it).
   */
  async insertFirstPresence(rows: { machine_id: string; state: string; changed_at: number }[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted = await this.db
      .insertInto('machine_presence')
      .values(rows)
      .onConflict((oc) => oc.column('machine_id').doNothing())
      .returning('machine_id')
      .execute();
    return new Set(inserted.map((r) => r.machine_id));
  }

  /** Records a recorded machine's new state; false when another sweep changed it first (the compare is on the old state). */
  async setPresence(machineId: string, from: string, to: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('machine_presence')
      .set({ state: to, changed_at: now })
      .where('machine_id', '=', machineId)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  // ---- rules

  async insertRule(row: AlertRuleRow): Promise<void> {
    await this.db.insertInto('alert_rules').values(row).execute();
  }

  rule(operatorId: string, id: string): Promise<AlertRuleRow | undefined> {
    return this.db.selectFrom('alert_rules').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
  }

  rulesOf(operatorId: string): Promise<AlertRuleRow[]> {
    return this.db.selectFrom('alert_rules').selectAll().where('operator_id', '=', operatorId).orderBy('created_at').orderBy('id').execute();
  }

  async countRules(operatorId: string): Promise<number> {
    const r = await this.db
      .selectFrom('alert_rules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('operator_id', '=', operatorId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async deleteRule(operatorId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('alert_rules').where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  // ---- alerts

  /** The alert of (rule, condition) still open or clearing: the one a repeat or a return of the condition folds into. */
  liveAlert(ruleId: string, condition: string): Promise<AlertRow | undefined> {
    return this.db
      .selectFrom('alerts')
      .selectAll()
      .where('rule_id', '=', ruleId)
      .where('condition', '=', condition)
      .where('state', 'in', ['open', 'clearing'])
      .executeTakeFirst();
  }

  /** The open or clearing alerts of an operator with one of these conditions. */
  liveAlertsOf(operatorId: string, conditions: string[]): Promise<AlertRow[]> {
    if (conditions.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('alerts')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('condition', 'in', conditions)
      .where('state', 'in', ['open', 'clearing'])
      .execute();
  }

  async insertAlert(row: AlertRow): Promise<void> {
    await this.db.insertInto('alerts').values(row).execute();
  }

  async updateAlert(id: string, set: Partial<Omit<AlertRow, 'id'>>): Promise<void> {
    await this.db.updateTable('alerts').set(set).where('id', '=', id).execute();
  }

  /** Counts one more occurrence of a live alert (a repeat, or the condition back while clearing) and keeps it open. */
  async recur(id: string, data: string, now: number): Promise<void> {
    await this.db
      .updateTable('alerts')
      .set((eb) => ({ occurrences: eb('occurrences', '+', 1), state: 'open', clear_at: null, data, updated_at: now }))
      .where('id', '=', id)
      .execute();
  }

  /** Alerts whose opening is due to be notified. */
  dueNotifications(now: number, limit: number): Promise<AlertRow[]> {
    // a clearing alert not yet notified (raised in quiet hours) waits: if it stays clear it closes untold
    return this.db.selectFrom('alerts').selectAll().where('notify_at', '<=', now).where('state', '=', 'open').orderBy('notify_at').limit(limit).execute();
  }

  /** Clearing alerts whose hold ran out. */
  dueClears(now: number, limit: number): Promise<AlertRow[]> {
    return this.db.selectFrom('alerts').selectAll().where('state', '=', 'clearing').where('clear_at', '<=', now).orderBy('clear_at').limit(limit).execute();
  }

  /** Moves an alert on only from the state it was read in; false when another tick or request moved it first. */
  async transition(id: string, from: string, set: Partial<Omit<AlertRow, 'id'>>): Promise<boolean> {
    const r = await this.db.updateTable('alerts').set(set).where('id', '=', id).where('state', '=', from).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async markNotified(id: string, notifyAt: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('alerts')
      .set({ notify_at: null, notified_at: now, updated_at: now })
      .where('id', '=', id)
      .where('notify_at', '=', notifyAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  alert(operatorId: string, id: string): Promise<AlertRow | undefined> {
    return this.db.selectFrom('alerts').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
  }

  alertsOf(operatorId: string, state: string | undefined, limit: number, offset: number): Promise<{ total: number; rows: AlertRow[] }> {
    const base = this.db
      .selectFrom('alerts')
      .where('operator_id', '=', operatorId)
      .$if(state !== undefined, (q) => q.where('state', '=', state!));
    return Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base.selectAll().orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    ]).then(([c, rows]) => ({ total: Number(c.n), rows }));
  }
}
