import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../../testing/harness.ts';
import { expectRefused, okData } from '../../../testing/answers.ts';
import type { DealState } from '../deals/deal-model.ts';
import { SETTINGS, dfyKit } from '../testing/dfy-test-kit.ts';

const SETTINGS_NULLS = SETTINGS.capabilityDefaults;

type Cap = { on: boolean; decidedBy: string };
type Mode = {
  label: string;
  dealId: string | null;
  machineNo: string | null;
  installBy: string;
  capabilities: Record<string, Cap>;
  toggles: Record<string, boolean | null>;
  concierge: { active: boolean; feeOwedUsd: number; enrolments: unknown[] };
};
type Securities = { costLines: { name: string; usd: number }[] };
const DAY = 86_400_000;

/** Operating modes and concierge over HTTP (spec 3 key rules 4, 5, 9). */
describe.each(DIALECTS)('done-for-you modes and concierge on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { api, person, atOutreach, placed, settings } = dfyKit(t);

  it('PUT /mode sets and clears toggles; the answer names the level that decided each capability', async () => {
    const me = await person();
    await settings(me, { autopilot: true, capabilityDefaults: { ...SETTINGS_NULLS, negotiation: false } });
    const d = await atOutreach(me);
    const m0 = okData(await api<Mode>('GET', `/mode/deal/${d.id}`, me));
    expect(m0.label).toBe('hybrid');
    expect(m0.capabilities.negotiation).toEqual({ on: false, decidedBy: 'portfolio_default' });
    expect(m0.capabilities.placement).toEqual({ on: true, decidedBy: 'autopilot' });

    const m1 = okData(await api<Mode>('PUT', `/mode/deal/${d.id}`, me, { negotiation: true }));
    expect(m1.label).toBe('auto');
    expect(m1.capabilities.negotiation).toEqual({ on: true, decidedBy: 'toggle' });
    okData(await api('POST', `/deals/${d.id}/autopilot`, me, { enabled: false }));
    const m2 = okData(await api<Mode>('PUT', `/mode/deal/${d.id}`, me, { inventory: true }));
    expect(m2.toggles).toMatchObject({ negotiation: true, inventory: true, placement: null });
    expect(m2.capabilities.placement).toEqual({ on: false, decidedBy: 'deal_autopilot' });
    const m3 = okData(await api<Mode>('PUT', `/mode/deal/${d.id}`, me, { negotiation: null, inventory: false }));
    expect(m3.label).toBe('manual');
    expect(m3.capabilities.negotiation!.decidedBy).toBe('deal_autopilot');

    expectRefused(await api('PUT', `/mode/deal/${d.id}`, me, { teleport: true }), 400, /Bad request/);
    expectRefused(await api('PUT', `/mode/venue/${d.id}`, me, {}), 400, /Bad request/);
    expectRefused(await api('PUT', `/mode/deal/${d.id}`, me, { install: 'yes' }), 422, /Validation/);
    expectRefused(await api('PUT', `/mode/deal/dl_nope`, me, {}), 404, /Deal not found/);
  });

  it('the autopilot tick acts only where the capability is on', async () => {
    const me = await person();
    await settings(me, { autopilot: true });
    type Tick = { shipped: string[]; gatesWaiting: { dealId: string }[] };
    const ready = await placed(me);
    const waiting = await atOutreach(me);
    okData(await api('PUT', `/mode/deal/${ready.id}`, me, { install: false }));
    okData(await api('PUT', `/mode/deal/${waiting.id}`, me, Object.fromEntries(Object.keys(SETTINGS_NULLS).map((c) => [c, false]))));
    const first = okData(await api<Tick>('POST', '/autopilot/tick', me));
    expect(first.shipped).not.toContain(ready.id);
    expect(first.gatesWaiting.map((g) => g.dealId)).not.toContain(waiting.id);
    expect(okData(await api<DealState>('GET', `/deals/${ready.id}`, me)).stage).toBe('ready_to_ship');
    okData(await api('PUT', `/mode/deal/${ready.id}`, me, { install: null }));
    okData(await api('PUT', `/mode/deal/${waiting.id}`, me, { negotiation: true }));
    const second = okData(await api<Tick>('POST', '/autopilot/tick', me));
    expect(second.shipped).toContain(ready.id);
    expect(second.gatesWaiting.map((g) => g.dealId)).toContain(waiting.id);
  });

  it('concierge: confirm-gated, forces Auto with the team, one per placement, fee prorated and owed after takeback', async () => {
    const me = await person();
    await settings(me, {});
    const d = await placed(me);
    const machineNo = d.machineNo!;
    expectRefused(await api('POST', `/mode/deal/${d.id}/concierge`, me, { action: 'enroll' }), 400, /Bad request/);
    const start = t.clock.now(); // 2026-11-20T12:00Z in the suite clock, or later
    const on = okData(await api<Mode>('POST', `/mode/deal/${d.id}/concierge`, me, { action: 'enroll', confirm: true }));
    expect(on.label).toBe('auto');
    expect(on.installBy).toBe('team');
    expect(Object.values(on.capabilities).every((c) => c.decidedBy === 'concierge')).toBe(true);
    expectRefused(await api('POST', `/mode/deal/${d.id}/concierge`, me, { action: 'enroll', confirm: true }), 409, /already enrolled/);
    expectRefused(await api('POST', `/mode/machine/${machineNo}/concierge`, me, { action: 'enroll', confirm: true }), 409, /one concierge fee per placement/);
    // the machine's mode shows the placement's concierge
    expect(okData(await api<Mode>('GET', `/mode/machine/${machineNo}`, me)).concierge.active).toBe(true);

    // to 2 December: November 20..30 (11 of 30 days) + December 1..2 (2 of 31 days)
    const takeback = Date.parse('2026-12-02T09:00:00Z');
    t.clock.advance(takeback - start);
    const off = okData(await api<Mode>('POST', `/mode/deal/${d.id}/concierge`, me, { action: 'takeback', confirm: true }));
    const days = Math.floor(takeback / DAY) - Math.floor(start / DAY) + 1 - 2; // November days enrolled
    const owed = (Math.round((9900 * days) / 30) + Math.round((9900 * 2) / 31)) / 100;
    expect(off.concierge).toMatchObject({ active: false, feeOwedUsd: owed });
    expect(off.installBy).toBe('self');
    t.clock.advance(5 * DAY);
    expect(okData(await api<Mode>('GET', `/mode/deal/${d.id}`, me)).concierge.feeOwedUsd).toBe(owed);
    const line = okData(await api<Securities>('GET', '/portfolio/securities', me)).costLines.find((c) => c.name.startsWith('concierge'))!;
    expect(line.usd).toBe(6.39);
    expectRefused(await api('POST', `/mode/deal/${d.id}/concierge`, me, { action: 'takeback', confirm: true }), 409, /not enrolled/);
    // taken back: the machine may now be enrolled (the same placement, a new enrolment)
    expect(okData(await api<Mode>('POST', `/mode/machine/${machineNo}/concierge`, me, { action: 'enroll', confirm: true })).concierge.active).toBe(true);
  });

  it("another operator's deal or machine is 404 on every mode endpoint and nothing changes", async () => {
    const owner = await person();
    const other = await person();
    const d = await placed(owner);
    const before = JSON.stringify(okData(await api<Mode>('GET', `/mode/deal/${d.id}`, owner)));
    for (const [kind, id] of [
      ['deal', d.id],
      ['machine', d.machineNo!],
    ]) {
      expectRefused(await api('GET', `/mode/${kind}/${id}`, other), 404, /not found/);
      expectRefused(await api('PUT', `/mode/${kind}/${id}`, other, { inventory: false }), 404, /not found/);
      expectRefused(await api('POST', `/mode/${kind}/${id}/concierge`, other, { action: 'enroll', confirm: true }), 404, /not found/);
    }
    expect(JSON.stringify(okData(await api<Mode>('GET', `/mode/deal/${d.id}`, owner)))).toBe(before);
  });
});
