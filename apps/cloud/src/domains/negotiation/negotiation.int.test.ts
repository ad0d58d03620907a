import { describe, expect, it } from 'vitest';
import { sandboxMandate } from './sandbox-seed.ts';
import type { Proposal } from './terms.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../testing/answers.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import { AuditLog } from '../../http/audit.ts';
import type { Principal } from '../../http/principal.ts';
import { newOperator } from '../machines/machines.factories.ts';
import { NegotiationService } from './negotiation.service.ts';

type H = Record<string, string>;
type Person = { id: string; headers: H };
type Turn = {
  seq: number;
  actor: string;
  round: number;
  proposal: Proposal;
  reasoning: string;
  inEnvelope: boolean;
  violations: string[];
  accept: boolean;
  at: string;
};
type Negotiation = {
  status: string;
  counterparty: string | null;
  mandate: { version: number } | null;
  rounds: number;
  standingOffer: Proposal | null;
  awaiting: string | null;
  turns: Turn[];
};
type Checkpoint = { kind: string; resolved: boolean; detail: string | null };

const MANDATE = { ...sandboxMandate({ earliest: '2026-12-01', latest: '2026-12-31' }), vertical: 'retail' };
// sandbox personas (seeded by venue): converges at 13.5% without approval / near the ceiling / walks away
const CALM = { name: 'Sunset Mall', address: null, lat: 40.7033, lng: -74.017 };
const EDGE = { name: 'Harbor Gym', address: null, lat: 40.7033, lng: -74.017 };
const STUBBORN = { name: 'Maple Office Park', address: null, lat: 40.7033, lng: -74.017 };

describe.each(DIALECTS)('done-for-you negotiation on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  const checkpoints = async (who: Person, dealId: string) =>
    okData(await call<Body<{ records: Checkpoint[] }>>(t.url, 'GET', '/api/v1/dfy/checkpoints', { headers: who.headers, query: { dealId } })).records;
  const atOutreach = async (who: Person, venue = CALM) => {
    const d = okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${d.id}/scout/accept`, who, { venue }));
    return d.id;
  };
  const negotiated = async (who: Person, venue = CALM, mandate: object = MANDATE) => {
    const id = await atOutreach(who, venue);
    okData(await api('PUT', `/deals/${id}/negotiation/envelope`, who, mandate));
    okData(await api('POST', `/deals/${id}/negotiation/start`, who, { confirm: true }));
    return { id, n: okData(await api<Negotiation>('POST', `/deals/${id}/negotiation/step`, who, {})) };
  };

  it('the mandate is validated and versioned; the start needs confirm from an operator, and the autopilot only raises negotiation_target', async () => {
    const me = await person();
    const id = await atOutreach(me);
    expectRefused(await api('PUT', `/deals/${id}/negotiation/envelope`, me, { ...MANDATE, revenueShareMaxPct: 'lots' }), 422, /Validation/);
    expectRefused(
      await api('PUT', `/deals/${id}/negotiation/envelope`, me, { ...MANDATE, revenueShareTargetPct: 16 }),
      400,
      /must not exceed revenueShareMaxPct/,
    );
    expectRefused(await api('PUT', `/deals/${id}/negotiation/envelope`, me, { ...MANDATE, termMinMonths: 30 }), 400, /termMinMonths ≤ termTargetMonths/);
    expectRefused(
      await api('PUT', `/deals/${id}/negotiation/envelope`, me, { ...MANDATE, installWindow: { earliest: '2027-01-02', latest: '2027-01-01' } }),
      400,
      /earliest must not be after latest/,
    );
    expectRefused(await api('POST', `/deals/${id}/negotiation/start`, me, { confirm: true }), 409, /needs a mandate \(PUT the envelope first\)/);
    const { installWindow: _, ...windowless } = MANDATE;
    const v1 = okData(
      await api<{ version: number; mandate: { installWindow: object } }>('PUT', `/deals/${id}/negotiation/envelope`, me, {
        ...windowless,
        revenueShareMaxPct: 12,
      }),
    );
    const day = (days: number) => new Date(t.clock.now() + days * 86_400_000).toISOString().slice(0, 10);
    expect(v1).toMatchObject({ version: 1, mandate: { installWindow: { earliest: day(7), latest: day(60) } } });
    const v2 = okData(await api<{ version: number; mandate: { revenueShareMaxPct: number } }>('PUT', `/deals/${id}/negotiation/envelope`, me, MANDATE));
    expect(v2).toMatchObject({ version: 2, mandate: { revenueShareMaxPct: 15 } });

    // the autopilot (portfolio on): it raises negotiation_target and starts nothing
    okData(
      await api('PUT', '/portfolio/settings', me, {
        ...(await api<object>('GET', '/portfolio/settings', me)).body.data,
        autopilot: true,
        updatedAt: undefined,
      }),
    );
    okData(await api('POST', '/autopilot/tick', me));
    expect(okData(await api<Negotiation>('GET', `/deals/${id}/negotiation`, me)).status).toBe('not_started');
    expect((await checkpoints(me, id)).filter((c) => c.kind === 'negotiation_target' && !c.resolved)).toHaveLength(1);

    expectRefused(await api('POST', `/deals/${id}/negotiation/start`, me, {}), 400, /confirm/);
    // no operator behind it (a background tick, a channel): the DFY table refuses the gate
    await expect(
      t.services.store.transaction((tx) => t.services.dfy.startNegotiationIn(tx, null, id, { ...MANDATE, revenueShareTargetPct: 10 }, true)),
    ).rejects.toThrow(/start_negotiation needs a request with confirm: true from an operator credential/);
    const n = okData(await api<Negotiation>('POST', `/deals/${id}/negotiation/start`, me, { confirm: true }));
    expect(n).toMatchObject({ status: 'running', counterparty: 'sandbox_persona', mandate: { version: 2 }, rounds: 1, awaiting: 'venue' });
    expect(n.turns).toHaveLength(1);
    expect(n.turns[0]).toMatchObject({ actor: 'engine', round: 1, inEnvelope: true, proposal: { revenueSharePct: 7.5, termMonths: 24 } });
    expect((await checkpoints(me, id)).find((c) => c.kind === 'negotiation_target')!.resolved).toBe(true);
    expectRefused(await api('PUT', `/deals/${id}/negotiation/envelope`, me, MANDATE), 409, /the mandate is fixed once the negotiation started/);
    expectRefused(await api('POST', `/deals/${id}/negotiation/start`, me, { confirm: true }), 409, /already started/);
  });

  it('the sandbox venue runs it to convergence alone; terms near the ceiling need approval before the lease can be sent', async () => {
    const me = await person();
    const calm = await negotiated(me);
    expect(calm.n).toMatchObject({ status: 'converged', awaiting: null });
    expect(calm.n.turns.at(-1)).toMatchObject({ accept: true, proposal: { revenueSharePct: 13.5 } });
    const calmDeal = okData(await api<DealState>('GET', `/deals/${calm.id}`, me));
    expect(calmDeal.negotiation).toMatchObject({ status: 'terms_recorded', terms: { revenueSharePct: 13.5, termMonths: 24 }, approvalReasons: [] });
    expect(calmDeal.openCheckpoints.map((c) => c.kind)).toEqual(['negotiation_review']);

    const edge = await negotiated(me, EDGE, { ...MANDATE, vertical: 'gym' });
    expect(edge.n.status).toBe('converged');
    const edgeDeal = okData(await api<DealState>('GET', `/deals/${edge.id}`, me));
    expect(edgeDeal.negotiation.approvalReasons.join()).toMatch(/within 1% of the ceiling 15%/);
    expect(edgeDeal.openCheckpoints.map((c) => c.kind).sort()).toEqual(['negotiation_review', 'terms_approval']);
    okData(await api('POST', `/deals/${edge.id}/negotiation/review`, me));
    expectRefused(await api('POST', `/deals/${edge.id}/lease/send`, me, { confirm: true }), 409, /terms_approval resolved first/);
    expectRefused(await api('POST', `/deals/${edge.id}/negotiation/approve-terms`, me, {}), 400, /confirm/);
    okData(await api('POST', `/deals/${edge.id}/negotiation/approve-terms`, me, { confirm: true }));
    expect(okData(await api<DealState>('POST', `/deals/${edge.id}/lease/send`, me, { confirm: true })).stage).toBe('lease_sent');
    expectRefused(
      await api('PUT', `/deals/${edge.id}/negotiation/envelope`, me, MANDATE),
      409,
      /^Deal is lease_sent: a mandate is set before the negotiation's terms/,
    );
    expectRefused(await api('POST', `/deals/${edge.id}/negotiation/step`, me, {}), 409, /the negotiation ended \(converged\)/);
    okData(await api('POST', `/deals/${edge.id}/lease/signature`, me));

    const graph = okData(
      await api<{ nodes: { id: string; kind: string }[]; edges: { from: string; to: string; kind: string }[] }>(
        'GET',
        `/deals/${edge.id}/negotiation/graph`,
        me,
      ),
    );
    expect(new Set(graph.nodes.map((n) => n.kind))).toEqual(new Set(['party', 'term_sheet', 'escalation', 'outcome', 'contract']));
    expect(new Set(graph.edges.map((e) => e.kind))).toEqual(new Set(['mandates', 'proposed_by', 'counters', 'concedes_on', 'led_to', 'signed']));
    const ids = new Set(graph.nodes.map((n) => n.id));
    for (const e of graph.edges) expect(ids.has(e.from) && ids.has(e.to), `${e.from} -> ${e.to}`).toBe(true);
  });

  it('the same inputs give the same turns, byte for byte; a prior convergence above target moves the opening and is cited', async () => {
    const [a, b] = [await person(), await person()];
    const strip = (n: Negotiation) => JSON.stringify(n.turns.map(({ at: _, ...rest }) => rest));
    const first = await negotiated(a);
    const second = await negotiated(b);
    expect(strip(second.n)).toBe(strip(first.n));
    // a's next retail deal opens just below its converged 13.5% and cites it; b's other-vertical deal does not
    const next = await atOutreach(a, EDGE);
    const n = okData(await api<Negotiation>('POST', `/deals/${next}/negotiation/start`, a, { confirm: true, envelope: MANDATE }));
    expect(n.turns[0]!.proposal.revenueSharePct).toBe(13);
    expect(n.turns[0]!.reasoning).toContain(`${first.id} at 13.5%`);
    const other = await atOutreach(b, EDGE);
    const m = okData(await api<Negotiation>('POST', `/deals/${other}/negotiation/start`, b, { confirm: true, envelope: { ...MANDATE, vertical: 'gym' } }));
    expect(m.turns[0]!.proposal.revenueSharePct).toBe(7.5);
    expect(m.turns[0]!.reasoning).not.toContain(second.id);
  });

  it('advise suggests without moving the standing offer; an operator turn is not clamped and is flagged outside the mandate', async () => {
    const me = await person();
    const id = await atOutreach(me, STUBBORN);
    expectRefused(await api('POST', `/deals/${id}/negotiation/advise`, me), 409, /advice needs a mandate/);
    okData(await api('PUT', `/deals/${id}/negotiation/envelope`, me, MANDATE));
    // before the start: the opening the engine would make, and nothing is stored
    expect(okData(await api<{ suggestion: Turn }>('POST', `/deals/${id}/negotiation/advise`, me)).suggestion).toMatchObject({ actor: 'engine', round: 1 });
    expect(okData(await api<Negotiation>('GET', `/deals/${id}/negotiation`, me))).toMatchObject({ status: 'not_started', turns: [] });
    expectRefused(
      await api('POST', `/deals/${id}/negotiation/operator-turn`, me, {
        proposal: { revenueSharePct: 'nine', termMonths: 24, power: 'venue_outlet', installDate: '2026-12-05' },
      }),
      422,
      /Validation/,
    );
    okData(await api('POST', `/deals/${id}/negotiation/start`, me, { confirm: true }));
    const one = okData(await api<Negotiation>('POST', `/deals/${id}/negotiation/step`, me, { rounds: 1 }));
    expect(one.turns.map((x) => x.actor)).toEqual(['engine', 'venue', 'engine']);
    const standing = okData(await api<Negotiation>('GET', `/deals/${id}/negotiation`, me));
    const advice = okData(await api<{ suggestion: Turn; standingOffer: Proposal }>('POST', `/deals/${id}/negotiation/advise`, me));
    expect(advice.standingOffer).toEqual(standing.standingOffer);
    expect(okData(await api<Negotiation>('GET', `/deals/${id}/negotiation`, me))).toEqual(standing);

    const out = okData(
      await api<Negotiation>('POST', `/deals/${id}/negotiation/operator-turn`, me, {
        proposal: { revenueSharePct: 16, termMonths: 24, power: 'dedicated_circuit', installDate: '2026-12-05' },
      }),
    );
    expect(out.turns.at(-1)).toMatchObject({ actor: 'operator', inEnvelope: false, proposal: { revenueSharePct: 16, power: 'dedicated_circuit' } });
    expect(out.turns.at(-1)!.violations).toEqual(['revenue share 16% above the mandate max', 'power arrangement dedicated_circuit not acceptable']);
    expect(out.standingOffer).toMatchObject({ revenueSharePct: 16 });
    const graph = okData(await api<{ nodes: { kind: string; label: string }[] }>('GET', `/deals/${id}/negotiation/graph`, me));
    expect(graph.nodes.some((n) => n.kind === 'escalation' && n.label.startsWith('operator move outside the mandate'))).toBe(true);
    // the venue takes it: no terms are recorded on the deal (it would refuse them); a person reads it
    const taken = await t.services.negotiation.recordCounterpartyReply(id, { channel: 'voice', message: 'Deal at 16.', accept: true });
    expect(taken.status).toBe('outside_mandate');
    expect(okData(await api<DealState>('GET', `/deals/${id}`, me)).negotiation.status).toBe('started');
    expect((await checkpoints(me, id)).find((c) => c.kind === 'reply_review')).toMatchObject({
      resolved: false,
      detail: expect.stringMatching(/outside the mandate/),
    });
  });

  it('a stubborn venue ends at an impasse (reply_review raised); a reply from a real channel becomes a turn through the same path', async () => {
    const me = await person();
    const stuck = await negotiated(me, STUBBORN);
    expect(stuck.n.status).toBe('impasse');
    expect((await checkpoints(me, stuck.id)).find((c) => c.kind === 'reply_review')).toMatchObject({ resolved: false });
    expect(okData(await api<DealState>('GET', `/deals/${stuck.id}`, me)).negotiation.status).toBe('started');

    const id = await atOutreach(me, CALM);
    okData(await api('POST', `/deals/${id}/negotiation/start`, me, { confirm: true, envelope: MANDATE }));
    const offer = okData(await api<Negotiation>('GET', `/deals/${id}/negotiation`, me)).standingOffer!;
    const svc = t.services.negotiation;
    await expect(svc.recordCounterpartyReply(id, { channel: 'email', message: 'x', proposal: { ...offer, revenueSharePct: -3 } })).rejects.toThrow(
      /malformed proposal/,
    );
    const r1 = await svc.recordCounterpartyReply(id, { channel: 'email', message: 'We would need 12%', proposal: { ...offer, revenueSharePct: 12 } });
    expect(r1.turns.slice(-2).map((x) => [x.actor, x.channel])).toEqual([
      ['venue', 'email'],
      ['engine', 'engine'],
    ]);
    expect(r1.standingOffer).toMatchObject({ revenueSharePct: 9.5 });
    const done = await svc.recordCounterpartyReply(id, { channel: 'email', message: 'Deal.', accept: true });
    expect(done).toMatchObject({ status: 'converged', standingOffer: { revenueSharePct: 9.5 } });
    expect(okData(await api<DealState>('GET', `/deals/${id}`, me)).negotiation.status).toBe('terms_recorded');
    await expect(svc.recordCounterpartyReply(id, { channel: 'email', message: 'late' })).rejects.toThrow(/ended \(converged\)/);

    const graphs = okData(
      await api<{ verticals: { vertical: string; converged: number }[]; negotiations: { dealId: string; status: string }[] }>('GET', '/negotiation/graphs', me),
    );
    expect(graphs.verticals).toEqual([expect.objectContaining({ vertical: 'retail', converged: 1 })]);
    expect(graphs.negotiations.map((n) => `${n.dealId} ${n.status}`).sort()).toEqual([`${stuck.id} impasse`, `${id} converged`].sort());
  });

  it('with a real counterparty (production) the venue answers only through its channel: step is 409', async () => {
    const me = await person();
    const live = new NegotiationService({
      store: t.services.store,
      clock: t.clock,
      audit: new AuditLog(t.clock),
      dfy: t.services.dfy,
      config: { mode: 'production' },
    });
    const id = await atOutreach(me);
    okData(await api('PUT', `/deals/${id}/negotiation/envelope`, me, MANDATE));
    // the service called as the routes call it, for the operator who owns the deal
    const p = { operatorId: me.id, admin: false } as Principal;
    const n = await live.start(p, id, { confirm: true });
    expect(n).toMatchObject({ counterparty: 'channel', awaiting: 'venue' });
    await expect(live.step(p, id, { rounds: 1 })).rejects.toThrow(/answers through its channel/);
    const answered = await live.recordCounterpartyReply(id, {
      channel: 'sms',
      message: '11% and it is yours',
      proposal: { ...n.standingOffer!, revenueSharePct: 11 },
    });
    expect(answered.turns.map((x) => x.actor)).toEqual(['engine', 'venue', 'engine']);
    // free text from the channel never moves money: it stays for a person (reply_review, raised by outreach)
    expect(await live.answerFromChannel(id, { channel: 'sms', text: 'Maybe 10% if you install in March?' })).toBe('left_for_review');
    expect((await live.get(p, id)).turns).toHaveLength(3);
    // a plain "yes" answers the standing offer, inside the mandate
    expect(await live.answerFromChannel(id, { channel: 'sms', text: ' Yes! ' })).toBe('accepted');
    expect(await live.get(p, id)).toMatchObject({ status: 'converged' });
    // once it has ended, a late word changes nothing and throws nothing
    expect(await live.answerFromChannel(id, { channel: 'sms', text: 'no' })).toBe('left_for_review');
  });
});
