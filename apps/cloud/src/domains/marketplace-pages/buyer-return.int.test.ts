import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { advertiseQrId } from '../creatives/advertise-qr.ts';
import { PageClient, STATION_BRIEF, formFields } from './pages.test-support.ts';
import { QUOTE_LINK_TTL_MS, QuoteLinks } from './quote-link.ts';
import { briefValuesOf } from './brief.page.ts';
import { image } from '../creatives/creatives.test-support.ts';

const KIOSK = 'SBX-ALICE-0001';
const squash = (s: string) => s.replace(/\s+/g, ' ');

/** Issue 34, the buyer tried as a new buyer would: coming back (Back, reload, an address typed or kept) never loses them. */
describe.each(DIALECTS)('the buyer coming back (%s)', (dialect) => {
  const t = suiteServer(dialect);
  let qr: string;
  let advertise: string;
  beforeAll(() => {
    qr = advertiseQrId(KIOSK, t.ctx.config.dataKey);
    advertise = `/advertise?machine=${KIOSK}&qr=${qr}`;
  });

  it('answers every unknown address under the buyer’s pages with an HTML 404 page linking back to the ad form; the API keeps its JSON', async () => {
    const c = new PageClient(t.url);
    expect((await c.get(advertise)).status).toBe(200);
    expect(c.cookies.get('vend_kiosk')).toBe(`${KIOSK}.${qr}`);
    for (const [method, path] of [
      ['GET', '/advertise/brief'],
      ['GET', '/advertise/pay'],
      ['GET', '/advertise/nope/deeper'],
      ['POST', '/advertise/nope'],
      ['GET', '/pay/nope'],
      ['GET', '/pay/test'],
      ['GET', '/buy'],
      ['GET', '/buy/chk_1/more'],
      ['GET', '/advertise/quote/not-a-link'],
    ] as const) {
      const r = await c.request(method, path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type'), path).toContain('text/html');
      expect(r.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      expect(r.text, path).toContain('<h1>Page not found</h1>');
      expect(r.text, path).toContain(`<a href="/advertise?machine=${KIOSK}&amp;qr=${qr}">Back to the ad form of kiosk ${KIOSK}</a>`);
      expect(r.text, path).not.toContain('No route for');
    }
    // a browser that never opened an ad form: the page still, saying to scan the kiosk's code
    const stranger = await new PageClient(t.url).get('/advertise/brief');
    expect(stranger.status).toBe(404);
    expect(squash(stranger.text)).toContain('scan the code on the kiosk’s screen');
    const api = await fetch(`${t.url}/api/v1/nope`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    expect(JSON.stringify(await api.json())).toContain('No route for GET /api/v1/nope');
  });

  it('answers the brief POST with a 303 to the quote’s own address, which opens the same quote again (Back, reload)', async () => {
    const c = new PageClient(t.url);
    await c.get(advertise);
    const posted = await c.postMultipart('/advertise/brief', { machine: KIOSK, qr, ...STATION_BRIEF });
    expect(posted.status).toBe(303);
    expect(posted.location).toMatch(/^\/advertise\/quote\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // the buyer's name, e-mail and the draft's token are sealed, never readable in the address
    expect(posted.location).not.toContain('joe');
    const first = await c.get(posted.location!);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Your price: $99.00');
    const fields = formFields(first.text, '/advertise/pay');
    expect(fields['buyerEmail']).toBe('joe@example.test');
    const again = await c.get(posted.location!);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Your price: $99.00');
    expect(formFields(again.text, '/advertise/pay')).toEqual({ ...fields, _csrf: expect.any(String) as string });
    // the same design: no second generation was spent by opening the quote again
    const drafts = await t.ctx.database.db.selectFrom('ad_creative_drafts').select('id').execute();
    const pay = await c.post('/advertise/pay', formFields(again.text, '/advertise/pay'));
    expect(pay.status).toBe(303);
    expect(pay.location).toMatch(/^\/pay\/test\/pi_/);
    expect((await t.ctx.database.db.selectFrom('ad_creative_drafts').select('id').execute()).length).toBe(drafts.length);
    // once bought, the quote's address says so instead of selling the same design twice
    await c.get(pay.location!);
    await c.post(pay.location!, {});
    const bought = await c.get(posted.location!);
    expect(bought.status).toBe(409);
    expect(bought.text).toContain('Already bought');
  });

  it('says an expired or tampered quote address expired or leads nowhere, with the way back', async () => {
    const links = new QuoteLinks(t.ctx.config.dataKey);
    const c = new PageClient(t.url);
    await c.get(advertise);
    const posted = await c.postMultipart('/advertise/brief', { machine: KIOSK, qr, ...STATION_BRIEF });
    const opened = links.open(posted.location!.split('/').at(-1)!);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const old = links.seal(opened.link, Date.now() - QUOTE_LINK_TTL_MS - 1000);
    const expired = await c.get(`/advertise/quote/${old}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This quote has expired');
    expect(expired.text).toContain(`<a href="/advertise?machine=${KIOSK}&amp;qr=${qr}">Start again from the ad form</a>`);
    const tampered = posted.location!.slice(0, -2) + (posted.location!.endsWith('AA') ? 'BB' : 'AA');
    const bad = await new PageClient(t.url).get(tampered);
    expect(bad.status).toBe(404);
    expect(bad.text).toContain('Page not found');
    // a link sealed under another deployment's key leads nowhere either
    const foreign = new QuoteLinks('another-key').seal({ machineNo: KIOSK, qrId: qr, values: briefValuesOf(STATION_BRIEF), draftToken: 'x', creativeId: 'y' });
    expect((await c.get(`/advertise/quote/${foreign}`)).status).toBe(404);
  });

  it('keeps an upload sent with a brief that has errors: the form offers it back, and the corrected brief quotes it', async () => {
    const c = new PageClient(t.url);
    await c.get(advertise);
    const tall = await image('png', 1080, 1920);
    const bad = await c.postMultipart(
      '/advertise/brief',
      { machine: KIOSK, qr, ...STATION_BRIEF, sponsorType: '', creativeMode: 'upload' },
      { field: 'creativeFile', name: 'tall.png', type: 'image/png', bytes: tall },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<a href="#f-sponsorType">Choose who is advertising</a>');
    expect(squash(bad.text)).toContain('Your ad so far: your upload (1080×1920).');
    const kept = formFields(bad.text, '/advertise/brief');
    expect(kept['creativeMode']).toBe('keep');
    expect(kept['draft']).toBeTruthy();
    // corrected, without choosing the file again
    const fixed = await c.postMultipart('/advertise/brief', { ...kept, ...STATION_BRIEF, creativeMode: 'keep', studioBrief: '' });
    expect(fixed.status).toBe(303);
    const quote = await c.follow(fixed);
    expect(squash(quote.text)).toContain('Your upload (1080×1920)');

    // no way to make the ad chosen, a file attached: it is said that the file was not kept
    await c.get(advertise);
    const unchosen = await c.postMultipart(
      '/advertise/brief',
      { machine: KIOSK, qr, ...STATION_BRIEF, creativeMode: '' },
      { field: 'creativeFile', name: 'tall.png', type: 'image/png', bytes: tall },
    );
    expect(unchosen.status).toBe(400);
    expect(squash(unchosen.text)).toContain('Your file was not kept');
  });

  it('shows the status link on the paid checkout when the buyer goes Back after paying', async () => {
    const c = new PageClient(t.url);
    await c.get(advertise);
    const quote = await c.follow(await c.postMultipart('/advertise/brief', { machine: KIOSK, qr, ...STATION_BRIEF }));
    const pay = await c.post('/advertise/pay', formFields(quote.text, '/advertise/pay'));
    await c.get(pay.location!);
    const paid = await c.post(pay.location!, {});
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/^\/advertise\/status\/adp_/);
    const paidCookie = paid.headers.getSetCookie().find((s) => s.startsWith('vend_paid='))!;
    expect(paidCookie).toContain(`Path=${pay.location!}`);
    expect(paidCookie).toContain('HttpOnly');
    // Back: the checkout again, now paid, with the link to the status page
    const back = await c.get(pay.location!);
    expect(back.status).toBe(200);
    expect(back.text).toContain('<h1>Paid</h1>');
    expect(back.text).toContain(`<a class="button" href="${paid.location!}">See your purchase</a>`);
    expect(back.text).not.toContain('Use the status link of your purchase');
    // the cookie is this checkout's own (Path above): a browser sends it to no other purchase's checkout
  });
});
