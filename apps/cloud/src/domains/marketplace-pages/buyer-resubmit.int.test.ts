import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import type { AdPurchase, PurchaseCreated, PurchaseStatusView } from '../ad-purchases/ad-purchases.schemas.ts';
import { ALICE, marketplaceCast, paidPurchase, pngUpload, statusOf, uploadedDraft } from '../ad-purchases/ad-purchases.test-support.ts';
import { PageClient } from './pages.test-support.ts';

const ALICE_OPERATOR = 'Alice Vending Co';

/** A rejected line sent back for approval with a new ad, while its refund is not issued (issue 34). */
describe.each(DIALECTS)('the buyer resubmits a rejected line on %s', (dialect) => {
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' } });
  const resubmit = (json: Record<string, unknown>) => call<Body<PurchaseStatusView>>(t.url, 'POST', '/api/v1/marketplace/purchases/resubmit', { json });
  const rejectAlice = (id: string) =>
    expectStatus<AdPurchase>(call(t.url, 'POST', `/api/v1/ad-purchases/${id}/reject`, { headers: ALICE, json: { reason: 'Not for this venue' } }), 200);
  const aliceLine = async (p: PurchaseCreated) => (await statusOf(t, p.statusToken)).lines.find((l) => l.operatorName === ALICE_OPERATOR)!;
  /** Paid (every kiosk in New York: alice's and carol's lines), alice's line rejected. */
  const rejected = async () => {
    const p = await paidPurchase(t);
    await rejectAlice(p.purchaseId);
    return p;
  };

  it('sends the rejected line back to pending approval with the new ad: a fresh draft campaign for its operator, no refund owed', async () => {
    await marketplaceCast(t);
    const p = await rejected();
    const before = await statusOf(t, p.statusToken);
    const line = before.lines.find((l) => l.operatorName === ALICE_OPERATOR)!;
    expect(line).toMatchObject({ status: 'rejected', resubmittable: true, resubmissions: 0, refund: { status: 'owed' } });
    expect(before.lines.find((l) => l.operatorName !== ALICE_OPERATOR)).toMatchObject({ status: 'pending_approval', resubmittable: false });

    const creative = await uploadedDraft(t);
    const r = await expectStatus<PurchaseStatusView>(resubmit({ statusToken: p.statusToken, lineId: line.lineId, creative }), 200);
    const after = r.body.data;
    expect(after.status).toBe('pending_approval');
    expect(after.lines.find((l) => l.lineId === line.lineId)).toMatchObject({
      status: 'pending_approval',
      reason: null,
      refundOwedCents: 0,
      refund: null,
      resubmittable: false,
      resubmissions: 1,
    });
    expect(after.refundOwedCents).toBe(0);

    // alice has a fresh approval: a new draft campaign on her line, which she approves
    const mine = await expectStatus<AdPurchase>(call(t.url, 'GET', `/api/v1/ad-purchases/${p.purchaseId}`, { headers: ALICE }), 200);
    expect(mine.body.data.lines[0]).toMatchObject({ status: 'pending_approval', campaignId: expect.stringMatching(/^cmp_/) as unknown });
    await expectStatus(call(t.url, 'POST', `/api/v1/ad-purchases/${p.purchaseId}/approve`, { headers: ALICE, json: {} }), 200);
    expect(await aliceLine(p)).toMatchObject({ status: 'approved' });

    // the draft is used up: it cannot buy or resubmit again
    expect((await resubmit({ statusToken: p.statusToken, lineId: line.lineId, creative })).status).toBe(409);
  });

  it('refuses a line whose refund was issued (409: the money is gone), a line not rejected, another token, an unknown line', async () => {
    const p = await rejected();
    const line = await aliceLine(p);
    const other = (await statusOf(t, p.statusToken)).lines.find((l) => l.operatorName !== ALICE_OPERATOR)!;
    const creative = await uploadedDraft(t);

    // not rejected (still pending): 409, nothing written
    const pending = await resubmit({ statusToken: p.statusToken, lineId: other.lineId, creative });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 409, data: null });
    // another purchase's token, or a token of no purchase: 404
    const q = await paidPurchase(t);
    expect((await resubmit({ statusToken: q.statusToken, lineId: line.lineId, creative })).status).toBe(400);
    expect((await resubmit({ statusToken: `${p.statusToken.slice(0, -4)}AAAA`, lineId: line.lineId, creative })).status).toBe(404);
    expect((await resubmit({ statusToken: p.statusToken, lineId: 'apl_nosuchline', creative })).status).toBe(400);

    // the refund is issued: the line cannot come back
    await expectStatus(call(t.url, 'POST', `/api/v1/ad-purchases/${p.purchaseId}/refund`, { headers: ALICE, json: {} }), 200);
    expect(await aliceLine(p)).toMatchObject({ status: 'rejected', resubmittable: false, refund: { status: 'issued' } });
    const refused = await resubmit({ statusToken: p.statusToken, lineId: line.lineId, creative });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('already refunded');
    expect(await aliceLine(p)).toMatchObject({ status: 'rejected', resubmissions: 0, refund: { status: 'issued' } });
    // none of the refusals used the draft up
    expect((await resubmit({ statusToken: q.statusToken, lineId: (await statusOf(t, q.statusToken)).lines[0]!.lineId, creative })).status).toBe(409);
    const draft = await expectStatus<{ usedByPurchase: boolean }>(
      call(t.url, 'POST', '/api/v1/marketplace/drafts/lookup', { json: { draftToken: creative.draftToken } }),
      200,
    );
    expect(draft.body.data.usedByPurchase).toBe(false);
  });

  it('the status page shows each refund state and the resubmit form; the form sends the line again', async () => {
    const p = await rejected();
    const c = new PageClient(t.url);
    const path = `/advertise/status/${p.statusToken}`;
    const line = await aliceLine(p);
    let page = await c.get(path);
    expect(page.text).toContain(`Refund of $${(line.refund!.amountCents / 100).toFixed(2)} owed by ${ALICE_OPERATOR}`);
    expect(page.text).toContain(`action="${path}/resubmit"`);
    const csrf = c.csrf();

    // neither a file nor a brief: 400 on the form, nothing sent
    const empty = await c.postMultipart(`${path}/resubmit`, { line: line.lineId, studioBrief: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Choose a file to upload, or describe a design for the studio');
    expect((await aliceLine(p)).status).toBe('rejected');

    // a failed refund says why
    await t.services.store.repos.adPurchases.refundFailed(line.lineId, 0, 'The payment processor could not refund: card expired', null, t.clock.now());
    page = await c.get(path);
    expect(page.text).toContain('The refund could not be made: The payment processor could not refund: card expired');

    const png = Buffer.from(pngUpload().dataBase64, 'base64');
    const sent = await c.postMultipart(`${path}/resubmit`, { line: line.lineId }, { field: 'creativeFile', name: 'new-ad.png', type: 'image/png', bytes: png });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(path);
    page = await c.get(path);
    expect(page.text).toContain('data-status="pending_approval"');
    expect(page.text).not.toContain(`action="${path}/resubmit"`);
    expect((await aliceLine(p)).status).toBe('pending_approval');

    // rejected again, then refunded: "Refunded $X on <date>" with the refund id, and no form
    await rejectAlice(p.purchaseId);
    await expectStatus(call(t.url, 'POST', `/api/v1/ad-purchases/${p.purchaseId}/refund`, { headers: ALICE, json: {} }), 200);
    const issued = (await aliceLine(p)).refund!;
    page = await c.get(path);
    expect(page.text).toContain(`Refunded $${(issued.amountCents / 100).toFixed(2)} on ${issued.at!.slice(0, 10)}`);
    expect(page.text).toContain(issued.refundId!);
    expect(page.text).not.toContain(`action="${path}/resubmit"`);
    const late = await c.postMultipart(
      `${path}/resubmit`,
      { _csrf: csrf, line: line.lineId },
      { field: 'creativeFile', name: 'new-ad.png', type: 'image/png', bytes: png },
    );
    expect(late.status).toBe(409);
    expect(late.text).toContain('already refunded');
  });
});
