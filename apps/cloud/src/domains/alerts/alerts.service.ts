import type { Logger } from 'pino';
import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import type { AlertRow, AlertRuleRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { badRequest, conflict, machineNotFound, notFound } from '../../http/errors.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { OutboundEvent, WebhookEvents } from '../webhooks/webhook-events.ts';
import type { AlertMailer } from './alert-mailer.ts';
import { CLEAR_HOLD_MS, MAX_RULES, conditionRaised, conditionsCleared, formatClock, notifyAt, parseClock } from './alerts.rules.ts';
import type { Alert, CreateRuleBody, Rule } from './alerts.schemas.ts';

export interface AlertsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The webhook outbox: alert.opened / alert.cleared go out through it. */
  outbox: Pick<WebhookEvents, 'emit'>;
  mailer: AlertMailer;
  logger: Logger;
}

const BATCH = 200;
const ruleNotFound = () => notFound('Alert rule');

/**
 * Alert rules and alerts (docs/alerts.md): which fleet events raise an alert, on which machines, when
 * people are told (quiet hours) and how (webhook, e-mail). One alert per (rule, condition) stays live until
 * the condition clears and stays clear for 30 minutes, so a flapping machine raises one alert, not many.
 */
export class AlertsService {
  constructor(private readonly d: AlertsDeps) {}

  // ---- rules

  async createRule(p: Principal, body: CreateRuleBody): Promise<Rule> {
    const now = this.d.clock.now();
    const id = newId('alr', now);
    await this.d.store.transaction(async (tx) => {
      if ((await tx.alerts.countRules(p.operatorId)) >= MAX_RULES) throw badRequest(`At most ${MAX_RULES} alert rules per operator`);
      const scopeRef = await this.scopeRef(tx, p, body.scope);
      await tx.alerts.insertRule({
        id,
        operator_id: p.operatorId,
        name: body.name,
        event_types: body.eventTypes.join(' '),
        scope: body.scope.kind,
        scope_ref: scopeRef,
        quiet_start_min: body.quietHours ? parseClock(body.quietHours.start) : null,
        quiet_end_min: body.quietHours ? parseClock(body.quietHours.end) : null,
        time_zone: body.timeZone,
        webhook: body.webhook ? 1 : 0,
        emails: body.emails.join(' '),
        created_at: now,
        updated_at: now,
      });
      await this.d.audit.record(tx, p, 'alerts.rule_create', `alert_rule:${id}`);
    });
    return ruleView((await this.d.store.repos.alerts.rule(p.operatorId, id))!);
  }

  async rules(p: Principal): Promise<Rule[]> {
    return (await this.d.store.repos.alerts.rulesOf(p.operatorId)).map(ruleView);
  }

  /** Deletes the rule with its alerts; answers it as it was. */
  async deleteRule(p: Principal, id: string): Promise<Rule> {
    const row = await this.d.store.repos.alerts.rule(p.operatorId, id);
    if (!row) throw ruleNotFound();
    await this.d.store.transaction(async (tx) => {
      if (!(await tx.alerts.deleteRule(p.operatorId, id))) throw ruleNotFound();
      await this.d.audit.record(tx, p, 'alerts.rule_delete', `alert_rule:${id}`);
    });
    return ruleView(row);
  }

  private async scopeRef(tx: Repos, p: Principal, scope: CreateRuleBody['scope']): Promise<string | null> {
    switch (scope.kind) {
      case 'fleet':
        return null;
      case 'machine': {
        const m = await tx.machines.machineByNo(scope.machineNo);
        if (!m || m.operator_id !== p.operatorId) throw machineNotFound();
        return m.machine_no;
      }
      case 'group':
        if ((await tx.access.groupsOf(p.operatorId, scope.groupId)).length === 0) throw notFound('Access group');
        return scope.groupId;
    }
  }

  // ---- alerts

  async alerts(p: Principal, q: Paging & { state?: Alert['state'] | undefined }): Promise<Page<Alert>> {
    const { total, rows } = await this.d.store.repos.alerts.alertsOf(p.operatorId, q.state, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(alertView) };
  }

  /** Closes a live alert by hand (conditions no event clears end this way); 409 once it is closed. */
  async resolve(p: Principal, id: string): Promise<Alert> {
    const now = this.d.clock.now();
    await this.d.store.transaction(async (tx) => {
      const a = await tx.alerts.alert(p.operatorId, id);
      if (!a) throw notFound('Alert');
      if (a.state !== 'open' && a.state !== 'clearing') throw conflict(`Alert is ${a.state}`);
      if (!(await tx.alerts.transition(id, a.state, { state: 'resolved', cleared_at: now, clear_at: null, notify_at: null, updated_at: now })))
        throw conflict('Alert changed meanwhile');
      await this.d.audit.record(tx, p, 'alerts.resolve', `alert:${id}`);
    });
    return alertView((await this.d.store.repos.alerts.alert(p.operatorId, id))!);
  }

  /**
   * Applies one fleet event to the operator's rules, in the transaction of the change: clears the
   * conditions it clears (they close once clear for 30 min) and raises the one it raises, folding a
   * repeat into the live alert of that rule and condition.
   */
  async evaluate(tx: Repos, e: OutboundEvent): Promise<void> {
    if (e.operatorId === null) return;
    const now = this.d.clock.now();
    for (const a of await tx.alerts.liveAlertsOf(e.operatorId, conditionsCleared(e))) {
      if (a.state === 'open') await tx.alerts.transition(a.id, 'open', { state: 'clearing', clear_at: now + CLEAR_HOLD_MS, updated_at: now });
    }
    const condition = conditionRaised(e);
    if (condition === null) return;
    const data = JSON.stringify(e.data);
    for (const rule of await tx.alerts.rulesOf(e.operatorId)) {
      if (!rule.event_types.split(' ').includes(e.type) || !(await this.covers(tx, rule, e.machineNo))) continue;
      const live = await tx.alerts.liveAlert(rule.id, condition);
      if (live) {
        await tx.alerts.recur(live.id, data, now);
        continue;
      }
      const quiet =
        rule.quiet_start_min === null || rule.quiet_end_min === null ? null : { start: rule.quiet_start_min, end: rule.quiet_end_min, zone: rule.time_zone };
      await tx.alerts.insertAlert({
        id: newId('alt', now),
        operator_id: e.operatorId,
        rule_id: rule.id,
        condition,
        type: e.type,
        machine_no: e.machineNo,
        state: 'open',
        occurrences: 1,
        data,
        opened_at: now,
        notify_at: notifyAt(now, quiet),
        notified_at: null,
        clear_at: null,
        cleared_at: null,
        updated_at: now,
      });
    }
  }

  private async covers(tx: Repos, rule: AlertRuleRow, machineNo: string | null): Promise<boolean> {
    if (rule.scope === 'fleet') return true;
    if (machineNo === null) return false;
    if (rule.scope === 'machine') return rule.scope_ref === machineNo;
    const [group] = await tx.access.groupsOf(rule.operator_id, rule.scope_ref ?? '');
    return group?.machine_nos.includes(machineNo) ?? false;
  }

  /**
   * The alert loop's work: closes alerts clear for the whole hold (telling whoever was told of their
   * opening) and notifies openings that are due (quiet hours over). Answers how many it handled.
   */
  async notifyDue(): Promise<number> {
    const now = this.d.clock.now();
    const repo = this.d.store.repos.alerts;
    let handled = 0;
    for (const a of await repo.dueClears(now, BATCH)) {
      const closed = await this.d.store.transaction(async (tx) => {
        if (!(await tx.alerts.transition(a.id, 'clearing', { state: 'cleared', cleared_at: now, clear_at: null, notify_at: null, updated_at: now })))
          return null;
        // an alert whose opening nobody heard of closes quietly
        return { rule: a.notified_at === null ? null : await this.announce(tx, { ...a, state: 'cleared', cleared_at: now, clear_at: null }, 'alert.cleared') };
      });
      if (!closed) continue;
      handled++;
      if (closed.rule) await this.mail(closed.rule, a, 'cleared');
    }
    for (const a of await repo.dueNotifications(now, BATCH)) {
      const rule = await this.d.store.transaction(async (tx) => {
        if (!(await tx.alerts.markNotified(a.id, a.notify_at!, now))) return null;
        return this.announce(tx, { ...a, notify_at: null, notified_at: now }, 'alert.opened');
      });
      if (rule) {
        handled++;
        await this.mail(rule, a, 'opened');
      }
    }
    return handled;
  }

  /** Queues the webhook event of the alert as it now stands when its rule sends by webhook; answers the rule. */
  private async announce(tx: Repos, a: AlertRow, type: 'alert.opened' | 'alert.cleared'): Promise<AlertRuleRow | null> {
    const rule = await tx.alerts.rule(a.operator_id, a.rule_id);
    if (!rule) return null;
    if (rule.webhook === 1) {
      await this.d.outbox.emit(tx, { operatorId: a.operator_id, type, machineNo: a.machine_no, data: { ...alertView(a), ruleName: rule.name } });
    }
    return rule;
  }

  /** E-mail goes after the commit; a mail the adapter cannot send is logged, not retried here (the adapter owns retries). */
  private async mail(rule: AlertRuleRow, a: AlertRow, what: 'opened' | 'cleared'): Promise<void> {
    const to = rule.emails.split(' ').filter(Boolean);
    if (to.length === 0) return;
    const subject = `[${rule.name}] ${a.type} ${what}${a.machine_no ? ` on ${a.machine_no}` : ''}`;
    const text = `${subject}\n\nCondition: ${a.condition}\nOpened: ${formatTimestamp(a.opened_at)}\nOccurrences: ${a.occurrences}\nDetails: ${a.data}\n`;
    try {
      await this.d.mailer.send({ to, subject, text });
    } catch (err) {
      this.d.logger.warn({ alertId: a.id, err: (err as Error).message }, 'alert e-mail not sent');
    }
  }
}

function ruleView(r: AlertRuleRow): Rule {
  const scope: Rule['scope'] =
    r.scope === 'machine' ? { kind: 'machine', machineNo: r.scope_ref! } : r.scope === 'group' ? { kind: 'group', groupId: r.scope_ref! } : { kind: 'fleet' };
  return {
    id: r.id,
    name: r.name,
    eventTypes: r.event_types.split(' '),
    scope,
    quietHours: r.quiet_start_min === null || r.quiet_end_min === null ? null : { start: formatClock(r.quiet_start_min), end: formatClock(r.quiet_end_min) },
    timeZone: r.time_zone,
    webhook: r.webhook === 1,
    emails: r.emails.split(' ').filter(Boolean),
    createdAt: formatTimestamp(r.created_at)!,
  };
}

function alertView(a: AlertRow): Alert {
  return {
    id: a.id,
    ruleId: a.rule_id,
    condition: a.condition,
    type: a.type,
    machineNo: a.machine_no,
    state: a.state as Alert['state'],
    occurrences: a.occurrences,
    data: JSON.parse(a.data) as Record<string, unknown>,
    openedAt: formatTimestamp(a.opened_at)!,
    notifiedAt: formatTimestamp(a.notified_at),
    clearedAt: formatTimestamp(a.cleared_at),
  };
}
