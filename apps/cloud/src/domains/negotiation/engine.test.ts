import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sandboxMandate } from './sandbox-seed.ts';
import { MAX_ROUNDS, answerTurn, conclusion, countOutOfMandateAsks, judged, openingTurn, operatorTurn, type Prior, type Turn } from './engine.ts';
import { band } from './graph.ts';
import { askAt, personaOf, personaReply } from './persona.ts';
import type { Mandate } from './terms.ts';

const MANDATE: Mandate = sandboxMandate({ earliest: '2026-12-01', latest: '2026-12-31' });

/** A whole sandbox negotiation, as the service runs it. */
function negotiate(m: Mandate, venue: { name: string; lat: number; lng: number }, priors: Prior[] = []): Turn[] {
  const persona = personaOf(venue);
  const turns: Turn[] = [openingTurn(m, priors)];
  while (conclusion(turns).status === 'running') {
    turns.push(judged(m, personaReply(persona, turns)));
    if (conclusion(turns).status === 'running') turns.push(answerTurn(m, turns));
  }
  return turns;
}

const venueArb = fc.record({
  name: fc.string({ minLength: 1, maxLength: 20 }),
  lat: fc.double({ min: -80, max: 80, noNaN: true }),
  lng: fc.double({ min: -170, max: 170, noNaN: true }),
});
const mandateArb = fc
  .record({
    target: fc.integer({ min: 2, max: 30 }),
    room: fc.integer({ min: 0, max: 20 }),
    min: fc.integer({ min: 1, max: 24 }),
    span: fc.integer({ min: 0, max: 24 }),
  })
  .map(({ target, room, min, span }) => ({
    ...MANDATE,
    revenueShareTargetPct: target,
    revenueShareMaxPct: target + room / 2,
    termMinMonths: min,
    termTargetMonths: min + (span >> 1),
    termMaxMonths: min + span,
  }));

describe('the negotiation engine', () => {
  it('is deterministic: a negotiation replayed gives the same turns, byte for byte', () => {
    const venue = { name: 'Riverside Climbing Gym', lat: 40.6782, lng: -73.9442 };
    const priors = [{ dealId: 'deal_a', revenueSharePct: 12 }];
    const first = JSON.stringify(negotiate(MANDATE, venue, priors));
    const second = JSON.stringify(negotiate(structuredClone(MANDATE), { ...venue }, structuredClone(priors)));
    expect(second).toBe(first);
    // a different venue is a different persona: the bytes differ, so the comparison can fail
    expect(JSON.stringify(negotiate(MANDATE, { ...venue, name: 'Northgate Coworking' }, priors))).not.toBe(first);
  });

  it('opens just below prior same-vertical convergence above target, never above the max, and cites those deals', () => {
    const priors = [
      { dealId: 'deal_low', revenueSharePct: 9 },
      { dealId: 'deal_b', revenueSharePct: 13 },
      { dealId: 'deal_a', revenueSharePct: 12 },
    ];
    const open = openingTurn(MANDATE, priors);
    expect(open.proposal.revenueSharePct).toBe(11.5);
    expect(open.reasoning).toContain('deal_a at 12%');
    expect(open.reasoning).toContain('deal_b at 13%');
    expect(open.reasoning).not.toContain('deal_low');
    // priors far above the mandate: capped at the max
    const capped = openingTurn(MANDATE, [{ dealId: 'deal_hi', revenueSharePct: 40 }]);
    expect(capped.proposal.revenueSharePct).toBe(15);
    expect(capped.inEnvelope).toBe(true);
    // nothing above target: half the room below the target
    expect(openingTurn(MANDATE, [{ dealId: 'deal_low', revenueSharePct: 9 }]).proposal.revenueSharePct).toBe(7.5);
  });

  it('never offers outside the mandate and always ends, converged inside it or at an impasse', () => {
    fc.assert(
      fc.property(mandateArb, venueArb, fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { maxLength: 3 }), (m, venue, shares) => {
        const turns = negotiate(
          m,
          venue,
          shares.map((s, i) => ({ dealId: `deal_${i}`, revenueSharePct: s })),
        );
        for (const t of turns) if (t.actor === 'engine' && !t.walkAway) expect(t.violations).toEqual([]);
        const c = conclusion(turns);
        expect(c.status).not.toBe('running');
        expect(turns.filter((t) => t.actor === 'engine').length).toBeLessThanOrEqual(MAX_ROUNDS + 1);
        if (c.status === 'converged') expect(c.terms.revenueSharePct).toBeLessThanOrEqual(m.revenueShareMaxPct);
      }),
      { numRuns: 80, seed: 16 },
    );
  });

  it('the persona is seeded by its venue: same venue, same traits; its ask falls to its reservation', () => {
    const v = { name: 'Bayview Laundromat', lat: 40.6437, lng: -74.0736 };
    expect(personaOf(v)).toEqual(personaOf({ ...v }));
    const p = personaOf(v);
    expect(askAt(p, 1)).toBe(p.openingAskPct);
    expect(askAt(p, 50)).toBe(p.reservationPct);
  });

  it('counts out-of-mandate asks and declines deal-breakers', () => {
    const open = openingTurn(MANDATE, []);
    const venue = judged(MANDATE, {
      actor: 'venue',
      round: 1,
      message: 'x',
      proposal: { ...open.proposal, revenueSharePct: 20, asks: ['exclusivity', 'upfront_fee'], power: 'dedicated_circuit' },
      accept: false,
      walkAway: false,
      reasoning: '',
      inEnvelope: true,
      violations: [],
    });
    expect(venue.inEnvelope).toBe(false);
    // the share is haggling; the deal-breaker and the power arrangement are out-of-mandate asks
    expect(countOutOfMandateAsks(MANDATE, [open, venue])).toBe(2);
    const answer = answerTurn(MANDATE, [open, venue]);
    expect(answer.proposal.asks).toEqual(['upfront_fee']);
    expect(answer.proposal.power).toBe('venue_outlet');
    expect(answer.reasoning).toContain('declined deal-breaker ask(s): exclusivity');
    expect(answer.inEnvelope).toBe(true);
    // a term and an install date out of bounds are brought to the nearest bound
    const far = judged(MANDATE, { ...venue, proposal: { ...venue.proposal, termMonths: 60, installDate: '2027-03-01', asks: [] } });
    expect(answerTurn(MANDATE, [open, far]).proposal).toMatchObject({ termMonths: 36, installDate: '2026-12-31' });
  });

  it('convergence bands: min, median (mean of the middle two when even), max and mean rounds', () => {
    expect(
      band([
        { sharePct: 13, rounds: 2 },
        { sharePct: 10, rounds: 4 },
        { sharePct: 12, rounds: 3 },
      ]),
    ).toEqual({ converged: 3, minPct: 10, medianPct: 12, maxPct: 13, avgRounds: 3 });
    expect(
      band([
        { sharePct: 13, rounds: 1 },
        { sharePct: 10, rounds: 2 },
      ]).medianPct,
    ).toBe(11.5);
  });

  it('an operator turn is not clamped: outside the mandate it is flagged; matching the venue counter accepts it', () => {
    const open = openingTurn(MANDATE, []);
    const t = operatorTurn(MANDATE, [open], { ...open.proposal, revenueSharePct: 18 }, null);
    expect(t).toMatchObject({ actor: 'operator', inEnvelope: false, accept: false });
    expect(t.proposal.revenueSharePct).toBe(18);
    expect(t.violations).toEqual(['revenue share 18% above the mandate max']);
    const venue = judged(MANDATE, { ...t, actor: 'venue', proposal: { ...open.proposal, revenueSharePct: 12 }, reasoning: '' });
    expect(operatorTurn(MANDATE, [open, venue], { ...open.proposal, revenueSharePct: 12 }, null).accept).toBe(true);
  });
});
