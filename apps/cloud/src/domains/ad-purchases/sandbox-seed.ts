import { hashSecret } from '../../crypto/secrets.ts';
import type { Repos } from '../../repos.ts';
import type { CreativesService } from '../creatives/creatives.service.ts';
import type { StoredPart } from './purchase-views.ts';
import { StatusTokenSeal } from './status-token-seal.ts';

const DAY = 86_400_000;
const ALICE = 'op_sbx_alice';
const MACHINE = 'SBX-ALICE-0001';

/**
 * The seed's rejected purchase and its status token: public by design like every sandbox credential, so the demo can
 * open the buyer's status page at `/advertise/status/<token>` and see a refund owed.
 */
export const SANDBOX_REJECTED_PURCHASE = {
  id: 'adp_sbxdemo010000000000000001',
  statusToken: 'adp_sbxdemo010000000000000001.sbx-demo-rejected-ad-status-token-00000001a',
} as const;

/**
 * The marketplace part of the sandbox data set: one self-serve purchase a buyer paid through the built-in test
 * processor (its intent succeeded, so the refund can be issued from the console), whose only line alice rejected
 * with a reason: the demo shows a refund owed on the buyer's status page and in alice's purchases. Its receipt was
 * sent; its status token is sealed like any purchase's. Times are derived from the seed day.
 */
export async function seedAdPurchases(tx: Repos, now: number, deps: { creatives: Pick<CreativesService, 'builtin'>; dataKey: string }): Promise<void> {
  const today = Math.floor(now / DAY) * DAY;
  const created = today - 3 * DAY;
  const { id, statusToken } = SANDBOX_REJECTED_PURCHASE;
  const media = await deps.creatives.builtin('Harbor Yoga — first class free this week. Mats provided, 2 blocks away.', 'Harbor Yoga');
  const draftId = 'acd_sbxdemo010000000000000001';
  await tx.adPurchases.insertDraft({ id: draftId, token_hash: hashSecret('sbx-demo-draft'), generations: 1, created_at: created, updated_at: created });
  await tx.adPurchases.insertDraftCreative({
    id: 'adc_sbxdemo010000000000000001',
    draft_id: draftId,
    seq: 1,
    sha256: media.sha256,
    media_type: media.mediaType,
    kind: media.kind,
    width: media.width,
    height: media.height,
    duration_ms: media.durationMs,
    bytes: media.bytes,
    source: 'contentx',
    contentx_ref: media.contentxRef,
    created_at: created,
  });
  const total = 9_900;
  const intentId = 'pi_test_sbxdemo01';
  const part: StoredPart = { operatorId: ALICE, operatorName: 'Alice Vending Co', machines: 1, machineNos: [MACHINE], amountCents: total };
  await tx.adPurchases.insertPurchase({
    id,
    status: 'rejected',
    status_token_hash: hashSecret(statusToken.split('.')[1]!),
    status_token_sealed: new StatusTokenSeal(deps.dataKey).seal(statusToken),
    buyer_name: 'Hana Park',
    buyer_email: 'hana@harbor-yoga.example',
    buyer_phone: null,
    sponsor_name: 'Harbor Yoga',
    sponsor_type: 'local-business',
    reach_json: JSON.stringify({ kind: 'machine', machineNo: MACHINE }),
    slots: 1,
    months: 1,
    flight_start: created,
    catalog_version: '2026-01',
    currency: 'USD',
    rate_cents: 9_900,
    multiplier_bps: 10_000,
    monthly_rate_cents: 9_900,
    machines: 1,
    total_cents: total,
    parts_json: JSON.stringify([part]),
    media_sha256: media.sha256,
    media_type: media.mediaType,
    media_kind: media.kind,
    media_width: media.width,
    media_height: media.height,
    media_duration_ms: media.durationMs,
    media_bytes: media.bytes,
    creative_source: 'contentx',
    contentx_ref: media.contentxRef,
    generations_used: 1,
    draft_id: draftId,
    payment_processor: 'test',
    payment_intent_id: intentId,
    checkout_url: `/pay/test/${intentId}`,
    source_qr_id: null,
    source_machine_no: MACHINE,
    paid_at: created + 600_000,
    receipt_status: 'sent',
    receipt_sent_at: created + 600_000,
    created_at: created,
    updated_at: created + DAY,
  });
  await tx.adPurchases.claimDraft(draftId, id, created);
  await tx.testPayments.insert({
    id: intentId,
    purchase_id: id,
    amount_cents: total,
    currency: 'USD',
    description: 'Screen ad for Harbor Yoga: 1 kiosk, 1 month',
    status: 'succeeded',
    created_at: created,
    succeeded_at: created + 600_000,
    delivered_at: created + 600_000,
    delivery_status: 200,
    webhook_path: null,
    return_url: null,
  });
  await tx.adPurchases.insertLine({
    id: 'apl_sbxdemo010000000000000001',
    purchase_id: id,
    operator_id: ALICE,
    machines: 1,
    machine_nos_json: JSON.stringify([MACHINE]),
    amount_cents: total,
    campaign_id: null,
    status: 'rejected',
    reason: 'The station does not allow fitness offers on its screens; a different ad is welcome.',
    decided_at: created + DAY,
    decided_by: ALICE,
    refund_owed_cents: total,
    refund_status: 'owed',
    created_at: created + 600_000,
  });
}
