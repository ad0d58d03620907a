import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { okData, type Body } from '../../../testing/answers.ts';
import type { DealState } from './deal-model.ts';
import { AUTOPILOT_DEMO_NOTE } from './sandbox-seed.ts';

describe.each(DIALECTS)('the done-for-you sandbox seed on %s', (dialect) => {
  const t = suiteServer(dialect);
  const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
  const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
  const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
  const get = async <T>(path: string, headers: Record<string, string>, query?: Record<string, string>): Promise<T> => {
    return okData(await call<Body<T>>(t.url, 'GET', `/api/v1/dfy${path}`, { headers, ...(query ? { query } : {}) }));
  };

  it("on first start alice's inbox shows work at several stages; every seeded deal replays to itself; bob sees none", async () => {
    const deals = (await get<{ records: DealState[] }>('/deals', alice)).records;
    expect(new Set(deals.map((d) => d.stage))).toEqual(new Set(['shortlisting', 'pre_ordered', 'outreach', 'lease_chat', 'signed']));
    const inbox = (await get<{ records: { kind: string; dealStage: string }[] }>('/checkpoints', alice, { resolved: 'false' })).records;
    expect(inbox.map((c) => `${c.dealStage}:${c.kind}`).sort()).toEqual(
      [
        'shortlisting:scout_outreach',
        'shortlisting:scout_outreach',
        'outreach:negotiation_target',
        'outreach:reply_review',
        'outreach:call_outcome',
        'lease_chat:lease_send',
        'lease_chat:terms_approval',
        'signed:money',
      ].sort(),
    );
    for (const d of deals) expect((await get<{ matchesStored: boolean }>(`/deals/${d.id}/replay`, alice)).matchesStored).toBe(true);
    expect((await get<{ total: number }>('/deals', bob)).total).toBe(0);
    // a negotiation in progress: our offer of round 2 awaits the sandbox venue
    const negotiating = deals.find((d) => d.venue?.name === 'Maple Office Park')!;
    const n = await get<{ status: string; awaiting: string; rounds: number; turns: unknown[] }>(`/deals/${negotiating.id}/negotiation`, alice);
    expect(n).toMatchObject({ status: 'running', awaiting: 'venue', rounds: 2 });
    expect(n.turns).toHaveLength(3);
    const p = await get<{ dealsInFlight: number; capitalValueUsd: number }>('/portfolio', alice);
    // her investment pool: 2,500 USD paid in, waiting for the next investment to reach a pro machine's 5,000
    const pool = await get<{ balanceUsd: number; totalInvestedUsd: number; machinesFunded: number; targetModel: string; history: unknown[] }>('/fleets', alice);
    expect(pool).toMatchObject({ balanceUsd: 2500, totalInvestedUsd: 2500, machinesFunded: 0, targetModel: 'pro' });
    expect(pool.history).toEqual([expect.objectContaining({ kind: 'investment', amountUsd: 2500, status: 'paid' })]);
    expect((await get<{ history: unknown[] }>('/fleets', bob)).history).toEqual([]);
    expect(p).toMatchObject({ dealsInFlight: 7, capitalValueUsd: 7000 });
  });

  it("alice's venue directory is seeded, so the shortlisting deal has a scored shortlist; bob's is empty", async () => {
    expect((await get<{ total: number }>('/directory', alice)).total).toBe(5);
    expect((await get<{ total: number }>('/directory', bob)).total).toBe(0);
    const scouting = (await get<{ records: DealState[] }>('/deals', alice, { stage: 'shortlisting' })).records.find((d) => d.note !== AUTOPILOT_DEMO_NOTE)!;
    const list = (await get<{ records: { name: string; score: number }[] }>(`/deals/${scouting.id}/shortlist`, alice)).records;
    expect(list).toHaveLength(5);
    expect(list.map((v) => v.score)).toEqual([...list.map((v) => v.score)].sort((a, b) => b - a));
  });

  it('the autopilot demo: one deal driven by the autopilot from shortlisting to the lease_send checkpoint, the only gate passed by alice', async () => {
    const send = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
      return okData(await call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: alice, ...(json !== undefined ? { json } : {}) }));
    };
    const deals = (await get<{ records: DealState[] }>('/deals', alice)).records;
    const demo = deals.find((d) => d.note === AUTOPILOT_DEMO_NOTE)!;
    expect(demo).toMatchObject({ id: 'deal_sbx_0022', stage: 'shortlisting', autopilot: true }); // the id docs/sandbox.md names
    const others = deals.filter((d) => d.id !== demo.id);
    const tick = () => send<{ accepted: { dealId: string }[]; reviewed: string[] }>('POST', '/autopilot/tick');

    // placement: the top venue scores ≥ alice's autoApproveScore, the first of the day — accepted alone
    const first = await tick();
    expect(first.accepted.map((a) => a.dealId)).toEqual([demo.id]);
    let d = await get<DealState>(`/deals/${demo.id}`, alice);
    expect(d).toMatchObject({ stage: 'outreach', venue: { name: 'Harbor Community College' }, negotiation: { status: 'not_started' } });
    expect(d.openCheckpoints.map((c) => c.kind)).toContain('negotiation_target');
    // the autopilot never starts the negotiation: ticks leave it waiting for the confirmed start
    t.clock.advance(3_600_000);
    await tick();
    expect((await get<DealState>(`/deals/${demo.id}`, alice)).negotiation.status).toBe('not_started');

    // alice's one step: the confirmed start (the seeded mandate)
    await send('POST', `/deals/${demo.id}/negotiation/start`, { confirm: true });
    for (let i = 0; i < 20 && d.stage !== 'lease_chat'; i++) {
      t.clock.advance(3_600_000);
      await tick();
      d = await get<DealState>(`/deals/${demo.id}`, alice);
    }
    expect(d.stage).toBe('lease_chat');
    expect(d.openCheckpoints.map((c) => c.kind)).toEqual(expect.arrayContaining(['lease_send']));
    expect(d.lease).toEqual({ sent: false, signed: false });
    const started = d.timeline.find((e) => e.event === 'negotiation_started')!;
    expect(started.actor).toBe('operator');
    // every other move of the deal was the autopilot's (or the system's), and none passed a gate
    const gated = ['negotiation_started', 'terms_approved', 'machine_paid', 'preorder_paid'];
    expect(d.timeline.filter((e) => e.actor === 'autopilot' && gated.includes(e.event))).toEqual([]);
    expect(d.timeline.filter((e) => e.event === 'venue_chosen').map((e) => e.actor)).toEqual(['autopilot']);
    // the rest of alice's seeded deals (autopilot off) did not move
    for (const o of others) expect((await get<DealState>(`/deals/${o.id}`, alice)).stage).toBe(o.stage);
    // a few more ticks: it stays at the lease gate
    t.clock.advance(3_600_000);
    await tick();
    expect((await get<DealState>(`/deals/${demo.id}`, alice)).stage).toBe('lease_chat');
  });

  it('the sandbox reset clears the deals written since and restores the seed', async () => {
    const made = okData(await call<Body<DealState>>(t.url, 'POST', '/api/v1/dfy/deals', { headers: alice, json: { tier: 'pro', hardwareVariant: 'agent' } }));
    const before = (await get<{ total: number }>('/deals', alice)).total;
    okData(await call(t.url, 'POST', '/sandbox/reset', { headers: admin }));
    expect((await get<{ total: number }>('/deals', alice)).total).toBe(before - 1);
    expect((await call(t.url, 'GET', `/api/v1/dfy/deals/${made.id}`, { headers: alice })).status).toBe(404);
  });
});
