import { OPERATOR_IDS } from '../../db/seed.ts';
import type { Repos } from '../../repos.ts';
import { priceOf } from '../dfy/deals/catalog.ts';
import { DealWriter } from '../dfy/deals/deal-writer.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import { AUTOPILOT_DEMO_NOTE } from '../dfy/deals/sandbox-seed.ts';
import { answerTurn, conclusion, countOutOfMandateAsks, judged, openingTurn, roundsOf, type Turn } from './engine.ts';
import { personaOf, personaReply } from './persona.ts';
import { dealEnvelope, type Mandate } from './terms.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const VENUE = { name: 'Maple Office Park', address: '200 Maple Ave, Hoboken, NJ', lat: 40.7433, lng: -74.0324 };
/** Rounds the seeded negotiation has run: it is still going, our offer awaits the venue persona. */
const SEEDED_ROUNDS = 2;

/** The sandbox's mandate (the demo's and the tests'): target 10%, max 15%, 12–36 months, no exclusivity. */
export function sandboxMandate(installWindow: Mandate['installWindow']): Mandate {
  return {
    revenueShareTargetPct: 10,
    revenueShareMaxPct: 15,
    termMinMonths: 12,
    termTargetMonths: 24,
    termMaxMonths: 36,
    powerArrangements: ['venue_outlet', 'operator_reimburses'],
    installWindow,
    dealBreakers: ['exclusivity'],
  };
}

/**
 * The negotiation part of the sandbox data set: one of alice's deals in outreach with a negotiation in
 * progress (its mandate, a confirmed start and two rounds against the venue persona), so
 * `POST …/negotiation/step` runs it on from the first start, and the mandate of the DFY seed's autopilot
 * demo deal. Walked through the DFY writer and the engine, with deterministic ids.
 */
export async function seedNegotiation(tx: Repos, now: number): Promise<void> {
  const alice = OPERATOR_IDS.alice;
  const at = now - 20 * HOUR;
  let n = 0;
  const mintId = (prefix: string) => `${prefix}_sbxn_${String(++n).padStart(4, '0')}`;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const mandate = sandboxMandate({ earliest: day(now + 7 * DAY), latest: day(now + 45 * DAY) });
  // the autopilot demo (docs/sandbox.md) has its mandate set, so a confirmed start is all it waits for
  const demo = (await tx.dfy.allDeals(alice)).find((r) => (JSON.parse(r.state_json) as DealState).note === AUTOPILOT_DEMO_NOTE);
  if (demo) {
    await tx.negotiation.insertMandate({
      deal_id: demo.id,
      version: 1,
      operator_id: alice,
      vertical: 'school',
      mandate_json: JSON.stringify(mandate),
      created_at: now - HOUR,
    });
  }
  const w = DealWriter.create(tx, alice, at, 'operator', 'api', mintId);
  w.emit({
    type: 'created',
    tier: 'pro',
    priceCents: priceOf('pro'),
    hardwareVariant: 'agent',
    venue: null,
    note: 'Office park lobby, 600 staff',
    autopilot: null,
    origin: 'request',
  });
  await w.move('deal_created');
  w.emit({ type: 'venue_chosen', venue: VENUE });
  await w.move('scout_accepted');
  await w.resolve('negotiation_target', 'start_negotiation');
  w.emit({ type: 'negotiation_started', envelope: dealEnvelope(mandate) });
  await w.flush();

  const persona = personaOf(VENUE);
  const turns: Turn[] = [openingTurn(mandate, [])];
  while (roundsOf(turns) < SEEDED_ROUNDS && conclusion(turns).status === 'running') {
    turns.push(judged(mandate, personaReply(persona, turns)));
    turns.push(answerTurn(mandate, turns));
  }
  await tx.negotiation.insertMandate({
    deal_id: w.dealId,
    version: 1,
    operator_id: alice,
    vertical: 'office',
    mandate_json: JSON.stringify(mandate),
    created_at: at,
  });
  await tx.negotiation.insertNegotiation({
    deal_id: w.dealId,
    operator_id: alice,
    vertical: 'office',
    status: 'running',
    counterparty: 'sandbox_persona',
    mandate_version: 1,
    rounds: roundsOf(turns),
    out_of_mandate_asks: countOutOfMandateAsks(mandate, turns),
    outcome_json: null,
    created_at: at,
    updated_at: at,
  });
  let seq = 0;
  for (const t of turns) {
    await tx.negotiation.insertTurn({
      deal_id: w.dealId,
      seq: ++seq,
      operator_id: alice,
      actor: t.actor,
      channel: t.actor === 'venue' ? 'sandbox' : 'engine',
      mandate_version: 1,
      turn_json: JSON.stringify(t),
      at,
    });
  }
}
