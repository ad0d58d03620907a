import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import type { DealState } from './deal-model.ts';

type Env<T> = { code: number; message: string; data: T };

describe.each(DIALECTS)('the done-for-you sandbox seed on %s', (dialect) => {
  const t = suiteServer(dialect);
  const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
  const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
  const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
  const get = async <T>(path: string, headers: Record<string, string>, query?: Record<string, string>): Promise<T> => {
    const r = await call<Env<T>>(t.url, 'GET', `/api/v1/dfy${path}`, { headers, ...(query ? { query } : {}) });
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };

  it("on first start alice's inbox shows work at several stages; every seeded deal replays to itself; bob sees none", async () => {
    const deals = (await get<{ records: DealState[] }>('/deals', alice)).records;
    expect(new Set(deals.map((d) => d.stage))).toEqual(new Set(['shortlisting', 'pre_ordered', 'outreach', 'lease_chat', 'signed']));
    const inbox = (await get<{ records: { kind: string; dealStage: string }[] }>('/checkpoints', alice, { resolved: 'false' })).records;
    expect(inbox.map((c) => `${c.dealStage}:${c.kind}`).sort()).toEqual(
      [
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
    expect(p).toMatchObject({ dealsInFlight: 6, capitalValueUsd: 7000 });
    // her investment pool: 2,500 USD paid in, waiting for the next investment to reach a pro machine's 5,000
    const pool = await get<{ balanceUsd: number; totalInvestedUsd: number; machinesFunded: number; targetModel: string; history: unknown[] }>('/fleets', alice);
    expect(pool).toMatchObject({ balanceUsd: 2500, totalInvestedUsd: 2500, machinesFunded: 0, targetModel: 'pro' });
    expect(pool.history).toEqual([expect.objectContaining({ kind: 'investment', amountUsd: 2500, status: 'paid' })]);
    expect((await get<{ history: unknown[] }>('/fleets', bob)).history).toEqual([]);
  });

  it("alice's venue directory is seeded, so the shortlisting deal has a scored shortlist; bob's is empty", async () => {
    expect((await get<{ total: number }>('/directory', alice)).total).toBe(5);
    expect((await get<{ total: number }>('/directory', bob)).total).toBe(0);
    const scouting = (await get<{ records: DealState[] }>('/deals', alice, { stage: 'shortlisting' })).records[0]!;
    const list = (await get<{ records: { name: string; score: number }[] }>(`/deals/${scouting.id}/shortlist`, alice)).records;
    expect(list).toHaveLength(5);
    expect(list.map((v) => v.score)).toEqual([...list.map((v) => v.score)].sort((a, b) => b - a));
  });

  it('the sandbox reset clears the deals written since and restores the seed', async () => {
    const made = await call<Env<DealState>>(t.url, 'POST', '/api/v1/dfy/deals', { headers: alice, json: { tier: 'pro', hardwareVariant: 'agent' } });
    expect(made.status).toBe(200);
    const before = (await get<{ total: number }>('/deals', alice)).total;
    const r = await call(t.url, 'POST', '/sandbox/reset', { headers: admin });
    expect(r.status, r.text).toBe(200);
    expect((await get<{ total: number }>('/deals', alice)).total).toBe(before - 1);
    expect((await call(t.url, 'GET', `/api/v1/dfy/deals/${made.body.data.id}`, { headers: alice })).status).toBe(404);
  });
});
