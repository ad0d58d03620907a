import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { okData, type Body } from '../../../testing/answers.ts';
import { enrol, keyHeader, newDeviceId } from '../../gateway/gateway.test-support.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import type { DealState } from '../deals/deal-model.ts';
import { ONLINE_WINDOW_MS } from './install.service.ts';

type H = Record<string, string>;
const VENUE = { name: 'Depot Market', address: '3 Depot Sq', lat: 41.88, lng: -87.63 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

/**
 * Auto-onboarding through the cabinet gateway (the legs a cabinet calls, over HTTP): installing → live only
 * when the pin's cabinet has enrolled with the install's arm, registered and been seen within 10 minutes;
 * a terminal that cannot be bound raises cashless_fail and does not hold the deal back.
 */
describe.each(DIALECTS)('done-for-you onboarding on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}) });
  const tick = () => t.services.jobs.dfyOnboarding.tick();

  /** A deal of `who` walked to installing; its pin's serial. */
  const installing = async (who: { headers: H }) => {
    const d = okData(await api<DealState>('POST', '/deals', who, { tier: 'entry', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${d.id}/scout/accept`, who, { venue: VENUE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, who, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, who, { revenueSharePct: 10, termMonths: 24, rounds: 2 }));
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, who));
    okData(await api('POST', `/deals/${d.id}/lease/send`, who, { confirm: true }));
    okData(await api('POST', `/deals/${d.id}/order/checkout`, who, { confirm: true }));
    const ready = okData(await api<DealState>('POST', `/deals/${d.id}/lease/signature`, who));
    okData(await api('POST', `/deals/${d.id}/shipping/tracking`, who, { carrier: 'ACME', trackingNumber: 'T' }));
    const wo = okData(await api<{ id: string }>('POST', `/deals/${d.id}/install/dispatch`, who, { confirm: true }));
    okData(await api('POST', `/install/orders/${wo.id}`, who, { state: 'on_site' }));
    return { id: d.id, serial: ready.machineNo! };
  };
  /** The shipped cabinet: enrols with the fleet secret and the install's arm, then registers with its key. */
  const cabinetComesUp = async (serial: string) => {
    const e = await enrol(t, serial, newDeviceId());
    expect(e.status, e.text).toBe(200);
    const key = `${e.body.data.keyId}:${e.body.data.deviceKey}`;
    const reg = await call(t.url, 'POST', '/cabinet/register', {
      headers: keyHeader(key),
      json: { equipmentNo: serial, agentVersion: '0.1.0', vmcVersion: '2.4.1' },
    });
    expect(reg.status, reg.text).toBe(200);
    return key;
  };

  it('goes live only after the cabinet is seen; terminal bound; not live when the last sighting is stale', async () => {
    const me = await newOperator(db(), t.clock.now());
    const a = await installing(me);
    await tick();
    expect(okData(await api<DealState>('GET', `/deals/${a.id}`, me)).stage).toBe('installing');
    const key = await cabinetComesUp(a.serial);
    // seen long ago: not verified online
    t.clock.advance(ONLINE_WINDOW_MS + 60_000);
    await tick();
    expect(okData(await api<DealState>('GET', `/deals/${a.id}`, me)).stage).toBe('installing');
    const hb = await call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(key) });
    expect(hb.status, hb.text).toBe(200);
    expect((await tick()).resolved).toBeGreaterThanOrEqual(1);
    const live = okData(await api<DealState>('GET', `/deals/${a.id}`, me));
    expect(live).toMatchObject({ stage: 'live', onboarding: { online: true, terminal: 'bound', planogram: true }, openCheckpoints: [] });
    const m = await call<Body<{ paymentTerminal: { merchantAccount: string } | null }>>(t.url, 'GET', `/api/v1/machines/${a.serial}`, { headers: me.headers });
    expect(m.body.data.paymentTerminal?.merchantAccount).toBe(`acct_${me.id}`);
  });

  it('a terminal bound to another merchant account raises cashless_fail; the deal goes live anyway; acknowledging resolves it', async () => {
    const me = await newOperator(db(), t.clock.now());
    const a = await installing(me);
    // the reader that came with the cabinet is still registered to someone else's merchant account
    const machine = await db().selectFrom('machines').select('id').where('machine_no', '=', a.serial).executeTakeFirstOrThrow();
    await db()
      .insertInto('payment_terminals')
      .values({
        id: `trm_other_${a.id.slice(-6)}`,
        machine_id: machine.id,
        operator_id: null,
        merchant_account: 'acct_somebody_else',
        provider: 'sandbox-pay',
        bound_at: t.clock.now(),
      })
      .execute();
    await cabinetComesUp(a.serial);
    await tick();
    const live = okData(await api<DealState>('GET', `/deals/${a.id}`, me));
    expect(live).toMatchObject({ stage: 'live', onboarding: { online: true, terminal: 'failed', planogram: true } });
    expect(live.openCheckpoints.map((c) => c.kind)).toEqual(['cashless_fail']);
    const cp = okData(await api<{ records: { id: string; detail: string }[] }>('GET', `/checkpoints?dealId=${a.id}&kind=cashless_fail`, me)).records[0]!;
    expect(cp.detail).toMatch(/another merchant account/);
    const ack = okData(await api<{ resolved: boolean; resolvedBy: string }>('POST', `/checkpoints/${cp.id}/acknowledge`, me));
    expect(ack).toMatchObject({ resolved: true, resolvedBy: 'acknowledged' });
    const replay = okData(await api<{ matchesStored: boolean }>('GET', `/deals/${a.id}/replay`, me));
    expect(replay.matchesStored).toBe(true);
  });
});
