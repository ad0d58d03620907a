import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { EventType } from '../webhooks/webhook-events.ts';
import type { EndpointWithSecret } from '../webhooks/webhooks.schemas.ts';
import { startReceiver, type Receiver } from '../webhooks/webhooks.test-support.ts';
import { RecordingAlertMailer } from './alert-mailer.ts';
import { CLEAR_HOLD_MS, OFFLINE_AFTER_MS } from './alerts.rules.ts';
import type { Alert, Rule } from './alerts.schemas.ts';

type H = Record<string, string>;
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
const MACHINE = 'SBX-ALICE-0001';
const MACHINE_2 = 'SBX-ALICE-0002';
const MINUTE = 60_000;

describe.each(DIALECTS)('alert rules on %s', (dialect) => {
  const mailer = new RecordingAlertMailer();
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' }, services: { alertMailer: mailer, webhookTimeoutMs: 500 } });
  const db = () => t.ctx.database.db;
  const receivers: Receiver[] = [];
  const api = <T>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const createRule = async (body: Record<string, unknown>) => {
    const r = await api<Rule>('POST', '/alert-rules', alice, body);
    return okData(r);
  };
  const alertsOf = async (ruleId: string) =>
    (await api<{ records: Alert[] }>('GET', '/alerts', alice, undefined, { size: '100' })).body.data.records.filter((a) => a.ruleId === ruleId);
  const alertHook = async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const ep = await api<EndpointWithSecret>('POST', '/webhooks', alice, { url: rx.url, eventTypes: ['alert.opened', 'alert.cleared'] });
    expect(ep.status, ep.text).toBe(200);
    return rx;
  };
  const seen = (machineNo: string) => db().updateTable('machines').set({ last_seen: t.clock.now() }).where('machine_no', '=', machineNo).execute();
  const loops = async () => {
    await t.services.presence.sweep();
    await t.services.alerts.notifyDue();
    await t.services.webhookDelivery.deliverDue();
  };
  const emit = (type: EventType, machineNo: string, data: Record<string, unknown> = {}) =>
    t.services.store.transaction((tx) => t.services.events.emit(tx, { operatorId: aliceId(), type, machineNo, data }));
  let aliceOperator = '';
  const aliceId = () => aliceOperator;

  afterEach(async () => {
    await db().deleteFrom('alert_rules').execute();
    await db().deleteFrom('webhook_endpoints').execute();
    for (const r of receivers.splice(0)) await r.close();
    mailer.sent.splice(0);
  });

  it('creates, lists and deletes rules; refuses another operator’s machine (404), unknown zones and bad clocks (400)', async () => {
    const rule = await createRule({
      name: 'Down machines',
      eventTypes: ['machine.offline', 'machine.offline'],
      scope: { kind: 'machine', machineNo: MACHINE },
      quietHours: { start: '22:00', end: '06:30' },
      timeZone: 'Europe/Berlin',
      emails: ['ops@example.test'],
    });
    expect(rule).toMatchObject({
      eventTypes: ['machine.offline'],
      scope: { kind: 'machine', machineNo: MACHINE },
      quietHours: { start: '22:00', end: '06:30' },
      webhook: true,
    });
    expect((await api<Rule[]>('GET', '/alert-rules', alice)).body.data.map((r) => r.id)).toEqual([rule.id]);
    expect((await api('GET', '/alert-rules', bob)).body.data).toEqual([]);
    expect(
      (await api('POST', '/alert-rules', alice, { name: 'x', eventTypes: ['machine.offline'], scope: { kind: 'machine', machineNo: 'SBX-BOB-0001' } })).status,
    ).toBe(404);
    expect((await api('POST', '/alert-rules', alice, { name: 'x', eventTypes: ['machine.offline'], timeZone: 'Mars/Olympus' })).status).toBe(400);
    expect(
      (await api('POST', '/alert-rules', alice, { name: 'x', eventTypes: ['machine.offline'], quietHours: { start: '24:00', end: '06:00' } })).status,
    ).toBe(400);
    expect((await api('POST', '/alert-rules', alice, { name: 'x', eventTypes: ['machine.online'] })).status).toBe(400);
    expect((await api('DELETE', `/alert-rules/${rule.id}`, bob)).status).toBe(404);
    expect((await api('DELETE', `/alert-rules/${rule.id}`, alice)).status).toBe(200);
    expect((await api<Rule[]>('GET', '/alert-rules', alice)).body.data).toEqual([]);
  });

  it('a mass reconnect is one commit: every machine first seen is recorded by one transaction, a stale one raises machine.offline', async () => {
    await db().deleteFrom('machine_presence').execute();
    const owned = await db()
      .selectFrom('machines')
      .select(['id', 'machine_no', 'last_seen'])
      .where('operator_id', 'is not', null)
      .where('retired_at', 'is', null)
      .execute();
    expect(owned.length).toBeGreaterThan(2);
    const stale = owned[0]!.machine_no;
    await db().updateTable('machines').set({ last_seen: t.clock.now() }).where('operator_id', 'is not', null).execute();
    await db()
      .updateTable('machines')
      .set({ last_seen: t.clock.now() - OFFLINE_AFTER_MS - MINUTE })
      .where('machine_no', '=', stale)
      .execute();
    const transactions = vi.spyOn(t.services.store, 'transaction');
    const raised = vi.spyOn(t.services.events, 'emit');
    try {
      expect(await t.services.presence.sweep()).toBe(owned.length);
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(raised.mock.calls.map(([, e]) => [e.type, e.machineNo])).toEqual([['machine.offline', stale]]);
      const recorded = await db().selectFrom('machine_presence').select(['machine_id', 'state']).execute();
      expect(recorded).toHaveLength(owned.length);
      expect(recorded.filter((r) => r.state === 'offline').map((r) => r.machine_id)).toEqual([owned[0]!.id]);
      // nothing changed since: the next sweep writes nothing
      expect(await t.services.presence.sweep()).toBe(0);
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      transactions.mockRestore();
      raised.mockRestore();
      // the later tests start from the seed's presence
      await db().deleteFrom('machine_presence').execute();
      for (const m of owned) await db().updateTable('machines').set({ last_seen: m.last_seen }).where('id', '=', m.id).execute();
    }
  });

  it('a machine flapping offline/online raises one alert, notified once, closed once it stays online for the hold', async () => {
    aliceOperator = (await db().selectFrom('machines').select('operator_id').where('machine_no', '=', MACHINE).executeTakeFirstOrThrow()).operator_id!;
    const rx = await alertHook();
    const rule = await createRule({
      name: 'Down',
      eventTypes: ['machine.offline'],
      scope: { kind: 'machine', machineNo: MACHINE },
      emails: ['ops@example.test'],
    });
    await seen(MACHINE);
    await loops(); // first seen online: nothing to say
    expect(await alertsOf(rule.id)).toEqual([]);
    t.clock.advance(OFFLINE_AFTER_MS + MINUTE);
    await loops();
    const [first] = await alertsOf(rule.id);
    expect(first).toMatchObject({ state: 'open', type: 'machine.offline', machineNo: MACHINE, occurrences: 1, condition: `machine.offline:${MACHINE}` });
    // five flaps: back online, then unseen again, each within the hold
    for (let i = 0; i < 5; i++) {
      await seen(MACHINE);
      await loops();
      expect((await alertsOf(rule.id))[0]!.state).toBe('clearing');
      t.clock.advance(OFFLINE_AFTER_MS + MINUTE);
      await loops();
    }
    const flapped = await alertsOf(rule.id);
    expect(flapped).toHaveLength(1);
    expect(flapped[0]).toMatchObject({ id: first!.id, state: 'open', occurrences: 6 });
    expect(mailer.sent.map((m) => m.subject)).toEqual([`[Down] machine.offline opened on ${MACHINE}`]);
    expect(mailer.sent[0]!.to).toEqual(['ops@example.test']);
    expect(rx.got.map((g) => g.json.type)).toEqual(['alert.opened']);
    // back for good: the alert closes once the hold has passed, and that is told once
    await seen(MACHINE);
    await loops();
    t.clock.advance(CLEAR_HOLD_MS);
    await seen(MACHINE);
    await loops();
    await loops();
    expect((await alertsOf(rule.id))[0]).toMatchObject({ id: first!.id, state: 'cleared' });
    expect(mailer.sent).toHaveLength(2);
    expect(rx.got.map((g) => g.json.type)).toEqual(['alert.opened', 'alert.cleared']);
    expect(rx.got[1]!.json.data).toMatchObject({ id: first!.id, state: 'cleared', ruleName: 'Down' });
    // down again after it closed: a new alert
    t.clock.advance(OFFLINE_AFTER_MS + MINUTE);
    await loops();
    const after = await alertsOf(rule.id);
    expect(after).toHaveLength(2);
    expect(after[0]).toMatchObject({ state: 'open', occurrences: 1 });
    expect(after[0]!.id).not.toBe(first!.id);
  });

  it('quiet hours hold the notification until they end; an alert cleared meanwhile closes untold; resolve closes by hand', async () => {
    aliceOperator = (await db().selectFrom('machines').select('operator_id').where('machine_no', '=', MACHINE_2).executeTakeFirstOrThrow()).operator_id!;
    const d = new Date(t.clock.now());
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const quietHours = { start: hh(d.getUTCHours()), end: hh(d.getUTCHours() + 2) };
    const rule = await createRule({
      name: 'Drops',
      eventTypes: ['dispense.failed', 'aisle.out'],
      scope: { kind: 'fleet' },
      quietHours,
      emails: ['night@example.test'],
      webhook: false,
    });
    await emit('dispense.failed', MACHINE_2, { commandId: 'cmd_a' });
    await emit('dispense.failed', MACHINE_2, { commandId: 'cmd_b' }); // a repeat folds into the same alert
    await t.services.alerts.notifyDue();
    expect(mailer.sent).toEqual([]);
    const [held] = await alertsOf(rule.id);
    expect(held).toMatchObject({ state: 'open', occurrences: 2, notifiedAt: null, data: { commandId: 'cmd_b' } });
    t.clock.advance(2 * 60 * MINUTE);
    await t.services.alerts.notifyDue();
    expect(mailer.sent.map((m) => m.subject)).toEqual([`[Drops] dispense.failed opened on ${MACHINE_2}`]);

    // raised in quiet hours and cleared before they end: nobody is woken, and it closes untold
    t.clock.advance(22 * 60 * MINUTE); // the next day's quiet hours
    mailer.sent.splice(0);
    await emit('aisle.out', MACHINE_2, { aisleNo: 4 });
    const out = (await alertsOf(rule.id)).find((a) => a.type === 'aisle.out')!;
    expect((await api<Alert>('POST', `/alerts/${out.id}/resolve`, bob)).status).toBe(404);
    expect((await api<Alert>('POST', `/alerts/${out.id}/resolve`, alice)).body.data).toMatchObject({ state: 'resolved' });
    expect((await api('POST', `/alerts/${out.id}/resolve`, alice)).status).toBe(409);
    await emit('dispense.failed', MACHINE, { commandId: 'cmd_e' }); // another machine's drop fails in the night…
    await emit('command.acknowledged', MACHINE, { commandId: 'cmd_f' }); // …and a drop there works again before morning
    await emit('dispense.failed', MACHINE_2, { commandId: 'cmd_c' }); // the first alert is still open: folds in
    await emit('command.acknowledged', MACHINE_2, { commandId: 'cmd_d' });
    t.clock.advance(CLEAR_HOLD_MS);
    await t.services.alerts.notifyDue();
    expect((await alertsOf(rule.id)).find((a) => a.type === 'dispense.failed' && a.machineNo === MACHINE_2)).toMatchObject({
      state: 'cleared',
      occurrences: 3,
    });
    expect((await alertsOf(rule.id)).find((a) => a.machineNo === MACHINE)).toMatchObject({ state: 'cleared', notifiedAt: null });
    t.clock.advance(2 * 60 * MINUTE);
    await t.services.alerts.notifyDue();
    expect(mailer.sent.map((m) => m.subject)).toEqual([`[Drops] dispense.failed cleared on ${MACHINE_2}`]);
  });
});
