import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { adLoop } from '../campaigns/campaigns.test-support.ts';
import { advertiseQrId } from '../creatives/advertise-qr.ts';
import { PageClient, buyThroughPages, formFields, signInAlice } from './pages.test-support.ts';

const KIOSK = 'SBX-ALICE-0001';
const squash = (s: string) => s.replace(/\s+/g, ' ');
const statusOf = (html: string) => /data-status="([a-z_]+)"/.exec(html)?.[1];

describe.each(DIALECTS)('the approvals queue page (%s)', (dialect) => {
  const t = suiteServer(dialect);
  let qr: string;
  beforeAll(() => {
    qr = advertiseQrId(KIOSK, t.ctx.config.dataKey);
  });

  const purchaseIdOf = (statusPath: string) => /\/advertise\/status\/(adp_[^.]+)\./.exec(statusPath)![1]!;

  it('sends a browser without a session to sign in, and back to the queue after', async () => {
    const c = new PageClient(t.url);
    const r = await c.get('/advertise/approvals?show=all');
    expect(r.status).toBe(302);
    expect(r.location).toBe('/advertise/signin?next=%2Fadvertise%2Fapprovals%3Fshow%3Dall');
    const post = await c.request('POST', '/advertise/approvals/adp_x/approve', new URLSearchParams({ _csrf: 'x' }));
    expect(post.status).toBe(303);
    expect(post.location).toMatch(/^\/advertise\/signin\?next=/);
    // an API key is not a page session
    const keyed = await c.request('GET', '/advertise/approvals', undefined, { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey });
    expect(keyed.status).toBe(302);
  });

  it('lists the purchase on alice’s kiosk; refuses a forged CSRF token (403) and an empty reason (400); approves → on air in the kiosk’s loop', async () => {
    const statusPath = await buyThroughPages(t.url, KIOSK, qr, { sponsorName: 'Queue Coffee' });
    const id = purchaseIdOf(statusPath);
    const c = new PageClient(t.url);
    await signInAlice(c, t.clock);
    const queue = await c.get('/advertise/approvals');
    expect(queue.status).toBe(200);
    expect(queue.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = squash(queue.text);
    expect(text).toContain('Queue Coffee');
    expect(text).toContain('joe@example.test');
    expect(text).toMatch(/<img class="thumb" src="\/media\/[0-9a-f]{64}\.png"/);
    expect(text).toContain(`action="/advertise/approvals/${id}/approve"`);
    expect(text).toContain('action="/advertise/signout"');

    const forged = await c.post(`/advertise/approvals/${id}/approve`, { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    const empty = await c.post(`/advertise/approvals/${id}/reject`, { ...formFields(queue.text, `/advertise/approvals/${id}/reject`), reason: '  ' });
    expect(empty.status).toBe(400);
    expect(squash(empty.text)).toContain('Reason for declining: say why, for the buyer');
    expect(statusOf((await c.get(statusPath)).text)).toBe('pending_approval');

    const ok = await c.post(`/advertise/approvals/${id}/approve`, formFields(queue.text, `/advertise/approvals/${id}/approve`));
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/advertise/approvals?done=approved');
    expect(statusOf((await c.get(statusPath)).text)).toBe('approved');
    const campaignId = (await t.ctx.database.db.selectFrom('ad_purchase_lines').select('campaign_id').where('purchase_id', '=', id).executeTakeFirstOrThrow())
      .campaign_id!;
    expect((await adLoop(t, KIOSK)).some((e) => e.campaignId === campaignId)).toBe(true);

    // deciding again is refused with the service's reason, on the page
    await c.get('/advertise/approvals?show=all');
    const twice = await c.post(`/advertise/approvals/${id}/approve`, {});
    expect(twice.status).toBe(409);
    expect(squash(twice.text)).toContain('already approved');
  });

  it('rejects with a reason the buyer reads, and the refund owed', async () => {
    const statusPath = await buyThroughPages(t.url, KIOSK, qr, { sponsorName: 'Declined Donuts' });
    const id = purchaseIdOf(statusPath);
    const c = new PageClient(t.url);
    await signInAlice(c, t.clock);
    const queue = await c.get('/advertise/approvals');
    const r = await c.post(`/advertise/approvals/${id}/reject`, {
      ...formFields(queue.text, `/advertise/approvals/${id}/reject`),
      reason: 'Not near a school <please>',
    });
    expect(r.status).toBe(303);
    const status = await c.get(statusPath);
    expect(statusOf(status.text)).toBe('rejected');
    expect(squash(status.text)).toContain('Reason: Not near a school &lt;please&gt;');
    expect(squash(status.text)).toContain('Refund owed to you: <b>$99.00</b>');
  });

  it('signs out from the queue: the session ends on the server', async () => {
    const c = new PageClient(t.url);
    await signInAlice(c, t.clock);
    const token = c.cookies.get('vend_session')!;
    const queue = await c.get('/advertise/approvals');
    const out = await c.post('/advertise/signout', formFields(queue.text, '/advertise/signout'));
    expect(out.status).toBe(303);
    expect(out.location).toBe('/advertise/signin');
    expect(c.cookies.has('vend_session')).toBe(false);
    expect((await call(t.url, 'GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await c.get('/advertise/approvals')).status).toBe(302);
  });

  it('walks an operator without an authenticator through its set-up; bob then sees no purchase of alice’s and cannot decide one', async () => {
    const statusPath = await buyThroughPages(t.url, KIOSK, qr, { sponsorName: 'Not Bobs' });
    const id = purchaseIdOf(statusPath);
    const c = new PageClient(t.url);
    await c.get('/advertise/signin');
    const enrol = await c.post('/advertise/signin', {
      email: SANDBOX_CREDENTIALS.bob.email,
      password: SANDBOX_CREDENTIALS.bob.password,
      next: '/advertise/approvals',
    });
    expect(enrol.status).toBe(200);
    expect(enrol.text).toMatch(/<img class="qr" src="data:image\/png;base64,/);
    const secret = formFields(enrol.text, '/advertise/signin/enrol')['secret']!;
    const wrong = await c.post('/advertise/signin/enrol', { ...formFields(enrol.text, '/advertise/signin/enrol'), code: '000000' });
    expect(wrong.status).toBe(401);
    expect(formFields(wrong.text, '/advertise/signin/enrol')['secret']).toBe(secret);
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: t.clock.now() });
    const done = await c.post('/advertise/signin/enrol', { ...formFields(wrong.text, '/advertise/signin/enrol'), code });
    expect(done.status).toBe(200);
    expect(squash(done.text)).toContain('Keep these recovery codes');
    expect(c.cookies.has('vend_session')).toBe(true);
    const queue = await c.get('/advertise/approvals?show=all');
    expect(queue.status).toBe(200);
    expect(queue.text).not.toContain('Not Bobs');
    const refused = await c.post(`/advertise/approvals/${id}/approve`, {});
    expect(refused.status).toBe(404);
    expect(statusOf((await c.get(statusPath)).text)).toBe('pending_approval');
  });
});
