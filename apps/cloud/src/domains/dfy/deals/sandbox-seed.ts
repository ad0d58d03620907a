import { OPERATOR_IDS } from '../../../db/seed.ts';
import type { Repos } from '../../../repos.ts';
import { priceOf } from './catalog.ts';
import { DealWriter } from './deal-writer.ts';
import { DEFAULT_TARGET, DFY_POOL_WEBHOOK_PATH } from '../pool/dfy-fleets.service.ts';
import { TEST_CHECKOUT_PATH } from '../../ad-purchases/test-processor.ts';
import { DEFAULT_SETTINGS, approvalReasons } from './dfy.rules.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Envelope, Terms, Venue } from './deal-model.ts';

const HOUR = 3_600_000;
/** The autopilot demo deal's note (docs/sandbox.md: how to watch it). */
export const AUTOPILOT_DEMO_NOTE = 'Autopilot demo: a campus lobby, driven by the autopilot to the lease checkpoint';
const ENVELOPE: Envelope = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };
const VENUES: Venue[] = [
  { name: 'Riverside Climbing Gym', address: '410 River Rd, Brooklyn, NY', lat: 40.6782, lng: -73.9442 },
  { name: 'Northgate Coworking', address: '88 Northgate Ave, Jersey City, NJ', lat: 40.7282, lng: -74.0776 },
  { name: 'Bayview Laundromat', address: '5 Bay St, Staten Island, NY', lat: 40.6437, lng: -74.0736 },
];

/**
 * The done-for-you part of the sandbox data set: alice's deals at several stages with open checkpoints, so
 * the inbox shows work on first start, and her investment pool with capital waiting. Every deal is walked through the same writer and transition table
 * the API uses (legal moves only, each an event in its log), with deterministic ids.
 */
export async function seedDfy(tx: Repos, now: number): Promise<void> {
  const alice = OPERATOR_IDS.alice;
  let n = 0;
  const mintId = (prefix: string) => `${prefix}_sbx_${String(++n).padStart(4, '0')}`;
  const deal = async (ago: number, walk: (w: DealWriter, at: number) => Promise<void>) => {
    const at = now - ago;
    const w = DealWriter.create(tx, alice, at, 'operator', 'api', mintId);
    await walk(w, at);
    await w.flush();
  };
  const create = (w: DealWriter, tier: 'entry' | 'pro' | 'pro-max', venue: Venue | null, note: string, origin: 'request' | 'preorder' = 'request') =>
    w.emit({ type: 'created', tier, priceCents: priceOf(tier), hardwareVariant: 'agent', venue, note, autopilot: null, origin });
  const negotiate = async (w: DealWriter, terms: Terms) => {
    await w.resolve('negotiation_target', 'start_negotiation');
    w.emit({ type: 'negotiation_started', envelope: ENVELOPE });
    const reasons = approvalReasons(ENVELOPE, terms);
    w.emit({ type: 'terms_recorded', terms, approvalReasons: reasons });
    await w.raise('negotiation_review', 'negotiation', `revenue share ${terms.revenueSharePct}%, ${terms.termMonths} months, ${terms.rounds} rounds`);
    if (reasons.length) await w.raise('terms_approval', 'negotiation', reasons.join('; '));
  };

  // 1. just asked for: the scout's shortlist waits (scout_outreach)
  await deal(2 * HOUR, async (w) => {
    create(w, 'entry', null, 'A gym or coworking space in Brooklyn');
    await w.move('deal_created');
  });
  // 2. pre-ordered (paid up front), no venue yet
  await deal(30 * HOUR, async (w, at) => {
    create(w, 'pro-max', null, 'Pre-order for the holiday season', 'preorder');
    const paymentId = mintId('dpay');
    w.emit({ type: 'preorder_paid', amountCents: priceOf('pro-max'), paymentId });
    await w.move('preorder_paid', { confirm: true });
    await w.ensureRow();
    await tx.dfy.insertPayment({
      id: paymentId,
      deal_id: w.dealId,
      operator_id: alice,
      kind: 'preorder',
      amount_cents: priceOf('pro-max'),
      created_at: at,
      refunded_at: null,
    });
  });
  // 3. in outreach: the negotiation waits for a confirmed start; a venue reply and a call outcome need a human
  await deal(50 * HOUR, async (w) => {
    create(w, 'pro', null, 'Office lobby, weekday traffic');
    await w.move('deal_created');
    w.emit({ type: 'venue_chosen', venue: VENUES[1]! });
    await w.move('scout_accepted');
    await w.raise('reply_review', 'outreach', 'Northgate replied by e-mail: "what does the machine need for power?"');
    await w.raise('call_outcome', 'outreach', 'Voice call to the front desk ended without an outcome');
  });
  // 4. lease chat with terms at the share ceiling: terms approval before the lease can go out
  await deal(80 * HOUR, async (w) => {
    create(w, 'pro', null, 'Climbing gym, evening crowd');
    await w.move('deal_created');
    w.emit({ type: 'venue_chosen', venue: VENUES[0]! });
    await w.move('scout_accepted');
    await negotiate(w, { revenueSharePct: 14.5, termMonths: 24, rounds: 9, outOfMandateAsks: 0 });
    await w.move('negotiation_reviewed');
  });
  // 5. lease signed, machine not paid: the money checkpoint waits for a confirmed checkout
  await deal(120 * HOUR, async (w) => {
    create(w, 'entry', null, 'Laundromat, 24/7');
    await w.move('deal_created');
    w.emit({ type: 'venue_chosen', venue: VENUES[2]! });
    await w.move('scout_accepted');
    await negotiate(w, { revenueSharePct: 10, termMonths: 24, rounds: 3, outOfMandateAsks: 0 });
    await w.move('negotiation_reviewed');
    await w.move('lease_sent', { confirm: true });
    await w.raise('money', 'contracting', 'entry at 3000 USD');
    w.emit({ type: 'lease_signed' });
    await w.move('signature');
  });
  // 6. the investment pool: 2,500 USD paid in and waiting (a pro machine, the default target, costs 5,000)
  const paidAt = now - 72 * HOUR;
  const investment = { id: 'dinv_sbx_0001', intentId: 'pi_sbx_pool_0001', cents: 250_000 };
  await tx.testPayments.insert({
    id: investment.intentId,
    purchase_id: investment.id,
    amount_cents: investment.cents,
    currency: 'USD',
    description: 'DFY investment pool: 2500.00 USD',
    status: 'succeeded',
    created_at: paidAt,
    succeeded_at: paidAt,
    webhook_path: DFY_POOL_WEBHOOK_PATH,
  });
  await tx.dfyFleets.ensurePool(alice, DEFAULT_TARGET, paidAt);
  await tx.dfyFleets.insertInvestment({
    id: investment.id,
    operator_id: alice,
    amount_cents: investment.cents,
    currency: 'USD',
    status: 'paid',
    processor: 'test',
    payment_intent_id: investment.intentId,
    checkout_url: `${TEST_CHECKOUT_PATH}/${investment.intentId}`,
    event_id: `evt_${investment.intentId}`,
    created_at: paidAt,
    paid_at: paidAt,
  });
  await tx.dfyFleets.move(alice, investment.cents, { invested: investment.cents }, paidAt);
  // 7. the autopilot demo (docs/sandbox.md): autopilot on for this deal only (its mandate is the negotiation
  // seed's). The autopilot accepts the top shortlisted venue alone (alice's settings: score ≥ 90, one a day),
  // starts outreach and raises negotiation_target; once alice confirms the start, it steps the venue persona
  // to convergence and reviews the terms into lease_chat, where lease_send (and terms_approval) wait for her
  await deal(HOUR, async (w) => {
    w.emit({
      type: 'created',
      tier: 'pro',
      priceCents: priceOf('pro'),
      hardwareVariant: 'agent',
      venue: null,
      note: AUTOPILOT_DEMO_NOTE,
      autopilot: true,
      origin: 'request',
    });
    await w.move('deal_created');
  });
  // the portfolio autopilot stays off (the other seeded deals wait for alice); these bound what it does alone
  const settings = { ...DEFAULT_SETTINGS, autoApproveScore: 90, maxAutoApprove: 1, moneyThresholdUsd: 50, updatedAt: formatTimestamp(now)! };
  await tx.dfy.putSettings(alice, JSON.stringify(settings), now);
}
