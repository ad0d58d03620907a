import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DealState, Envelope } from '../dfy/deals/deal-model.ts';
import { CHANNELS } from './channels/channel.ts';
import { SCRIPT_KINDS, renderScript } from './scripts.ts';
import { scriptFactsOf } from './script-facts.ts';

/** Every number of the envelope, as a script could print it. */
function envelopeTokens(e: Envelope): string[] {
  return Object.values(e).flatMap((n: number) => [String(n), n.toFixed(1), n.toFixed(2), `${n}%`]);
}

const hostileEnvelope = fc
  .record({
    revenueShareTargetPct: fc.double({ min: 1, max: 99, noNaN: true }).map((n) => Math.round(n * 100) / 100),
    spread: fc.double({ min: 0, max: 20, noNaN: true }).map((n) => Math.round(n * 100) / 100),
    termMinMonths: fc.integer({ min: 1, max: 120 }),
    termSpread: fc.integer({ min: 0, max: 60 }),
  })
  .map((r): Envelope => ({
    revenueShareTargetPct: r.revenueShareTargetPct,
    revenueShareMaxPct: Math.min(100, Math.round((r.revenueShareTargetPct + r.spread) * 100) / 100),
    termMinMonths: r.termMinMonths,
    termTargetMonths: r.termMinMonths + Math.floor(r.termSpread / 2),
    termMaxMonths: r.termMinMonths + r.termSpread,
  }));

/** Venue names of letters only, so a number in a message can only have come from elsewhere. */
const venueName = fc.stringMatching(/^[A-Z][a-z]{2,12}( [A-Z][a-z]{2,12}){0,2}$/);

function dealWith(envelope: Envelope, note: string): DealState {
  return {
    tier: 'pro',
    note,
    negotiation: {
      status: 'started',
      envelope,
      terms: { revenueSharePct: envelope.revenueShareMaxPct, termMonths: envelope.termMaxMonths, rounds: 3, outOfMandateAsks: 1 },
      approvalReasons: [],
    },
  } as unknown as DealState;
}

describe('the script library never carries the negotiation envelope', () => {
  it('every script, every channel, rendered from a deal with a hostile envelope (also in its note and terms): none of its numbers appear', () => {
    fc.assert(
      fc.property(hostileEnvelope, venueName, (envelope, name) => {
        // the operator's own note quotes the mandate: still nothing of it may reach the venue
        const deal = dealWith(
          envelope,
          `mandate: target ${envelope.revenueShareTargetPct}% max ${envelope.revenueShareMaxPct}% for ${envelope.termMaxMonths} months`,
        );
        const facts = { ...scriptFactsOf(deal, name), unsubscribeUrl: 'https://vend.test/u/TOKEN' };
        for (const kind of SCRIPT_KINDS) {
          for (const channel of CHANNELS) {
            const m = renderScript(kind, channel, facts);
            const text = `${m.subject ?? ''}\n${m.body}`.replace(/https?:\/\/\S+/g, '');
            for (const tok of envelopeTokens(envelope))
              expect(text, `${kind}.${channel} carries ${tok}`).not.toMatch(new RegExp(`(^|[^0-9.])${tok.replace(/[.%]/g, '\\$&')}($|[^0-9])`));
            expect(text).not.toMatch(/mandate|revenue share|%|months/i);
          }
        }
      }),
      { numRuns: 60, seed: 16 },
    );
  });
});
