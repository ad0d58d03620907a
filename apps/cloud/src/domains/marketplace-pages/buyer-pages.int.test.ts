import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { image } from '../creatives/creatives.test-support.ts';
import { advertiseQrId } from '../creatives/advertise-qr.ts';
import { PageClient, formFields } from './pages.test-support.ts';

const KIOSK = 'SBX-ALICE-0001';
const BOB_KIOSK = 'SBX-BOB-0001';

/** A complete brief for alice's station kiosk: a local business, this kiosk, standard slot, one month, a studio design. */
const BRIEF = {
  sponsorType: 'local-business',
  sponsorName: 'Joe’s Coffee <b>',
  buyerName: 'Joe Buyer',
  buyerEmail: 'joe@example.test',
  buyerPhone: '',
  reach: 'machine',
  zip: '10001',
  zips: '',
  city: 'New York',
  slots: '1',
  months: '1',
  flightStart: '',
  creativeMode: 'studio',
  studioBrief: 'Fresh coffee two blocks away',
};

/** The page's text with every run of white space as one space (the markup is formatted by prettier). */
const squash = (s: string) => s.replace(/\s+/g, ' ');
const statusOf = (html: string) => /data-status="([a-z_]+)"/.exec(html)?.[1];

describe.each(DIALECTS)('buyer pages (%s)', (dialect) => {
  const t = suiteServer(dialect);
  let advertise: string;
  let qr: string;
  beforeAll(() => {
    qr = advertiseQrId(KIOSK, t.ctx.config.dataKey);
    advertise = `/advertise?machine=${KIOSK}&qr=${qr}`;
  });

  /** A browser on the brief page of alice's kiosk. */
  async function onBrief(): Promise<PageClient> {
    const c = new PageClient(t.url);
    expect((await c.get(advertise)).status).toBe(200);
    return c;
  }

  const hidden = { machine: KIOSK };

  it('renders the brief with the page headers, labels, legends and the poster link', async () => {
    const c = new PageClient(t.url);
    const r = await c.get(advertise);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.text).toContain(`<a href="/advertise/poster/${KIOSK}.png">`);
    expect(r.text).toContain('enctype="multipart/form-data"');
    for (const legend of ['Who is advertising?', 'Where should the ad run?', 'How often should it show?', 'How do you want to make it?'])
      expect(r.text).toContain(`<legend>${legend}</legend>`);
    // every control is labelled: each id a control carries has its <label for>
    const ids = [...r.text.matchAll(/<(?:input|select|textarea)\s(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(15);
    for (const id of ids) expect(r.text).toContain(`<label for="${id}">`);
    expect(r.text).not.toMatch(/<script|style=/);
  });

  it('answers a friendly 404 page for a wrong QR id, an unknown kiosk, or none', async () => {
    const c = new PageClient(t.url);
    for (const path of [
      `/advertise?machine=${KIOSK}&qr=qr_0000000000000000`,
      `/advertise?machine=SBX-NOPE-0001&qr=${qr}`,
      '/advertise',
      `/advertise?machine=${KIOSK}`,
    ]) {
      const r = await c.get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.text).toContain('Kiosk not found');
    }
  });

  it('says an opt-out operator’s kiosk is not for sale, and offers no form', async () => {
    const c = new PageClient(t.url);
    const r = await c.get(`/advertise?machine=${BOB_KIOSK}&qr=${advertiseQrId(BOB_KIOSK, t.ctx.config.dataKey)}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('This screen is not for sale');
    expect(r.text).not.toContain('<form');
  });

  it('re-renders a brief with missing fields as 400: errors next to their fields, summarised with links, values kept', async () => {
    const c = await onBrief();
    const r = await c.postMultipart('/advertise/brief', {
      ...hidden,
      qr,
      sponsorName: 'Kept & <escaped>',
      sponsorType: '',
      buyerEmail: 'not-an-email',
      reach: 'zip',
      zip: '',
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('value="Kept &amp; &lt;escaped&gt;"');
    expect(r.text).toContain('class="error-summary"');
    expect(r.text).toContain('<a href="#f-sponsorType">Choose who is advertising</a>');
    expect(r.text).toContain('<a href="#f-zip">Enter the ZIP code</a>');
    expect(r.text).toContain('aria-describedby="f-zip-hint f-zip-error"');
    expect(r.text).toMatch(/Email address: /);
    expect(r.text).toContain('<a href="#f-creativeMode">');
  });

  it('quotes on the server only: a tampered total or amount in the form changes nothing, down to the payment intent', async () => {
    const c = await onBrief();
    const tampered = { total: '1', amount: '0.01', totalCents: '1', amountCents: '1', rateCents: '1' };
    const posted = await c.postMultipart('/advertise/brief', { ...hidden, qr, ...BRIEF, ...tampered });
    expect(posted.status).toBe(303);
    const quote = await c.follow(posted);
    expect(quote.status).toBe(200);
    expect(quote.text).toContain('Your price: $99.00');
    expect(quote.text).toContain('Joe’s Coffee &lt;b&gt;');
    expect(quote.text).not.toMatch(/name="(total|amount|totalCents|amountCents|rateCents)"/);
    expect(Object.keys(formFields(quote.text, '/advertise/pay')).some((k) => /total|amount|cents/i.test(k))).toBe(false);
    const pay = await c.post('/advertise/pay', { ...formFields(quote.text, '/advertise/pay'), ...tampered });
    expect(pay.status).toBe(303);
    const intentId = /^\/pay\/test\/(pi_[A-Za-z0-9]+)$/.exec(pay.location!)?.[1];
    expect(intentId).toBeDefined();
    const intent = await t.services.testProcessor!.intent(intentId!);
    expect(intent.amountCents).toBe(9900);
    const row = await t.ctx.database.db
      .selectFrom('ad_purchases')
      .select(['total_cents', 'status'])
      .where('payment_intent_id', '=', intentId!)
      .executeTakeFirstOrThrow();
    expect(Number(row.total_cents)).toBe(9900);
    expect(row.status).toBe('awaiting_payment');
  });

  it('refuses brief, pay and checkout POSTs without the CSRF token (403, nothing written)', async () => {
    const c = await onBrief();
    const before = await t.ctx.database.db
      .selectFrom('ad_creative_drafts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await c.postMultipart('/advertise/brief', { ...hidden, qr, ...BRIEF, _csrf: 'forged' })).status).toBe(403);
    expect((await c.post('/advertise/pay', { ...hidden, qr, ...BRIEF, _csrf: '' })).status).toBe(403);
    expect((await c.post('/pay/test/pi_unknown', { _csrf: 'x' })).status).toBe(403);
    const after = await t.ctx.database.db
      .selectFrom('ad_creative_drafts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('takes an uploaded file, and re-renders a refused one (landscape) with the reason, the brief kept', async () => {
    const c = await onBrief();
    const wide = await image('png', 1920, 1080);
    const bad = await c.postMultipart(
      '/advertise/brief',
      { ...hidden, qr, ...BRIEF, creativeMode: 'upload' },
      { field: 'creativeFile', name: 'wide.png', type: 'image/png', bytes: wide },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The file was refused');
    expect(bad.text).toContain('landscape');
    expect(bad.text).toContain('value="Joe Buyer"');
    const tall = await image('png', 1080, 1920);
    const ok = await c.follow(
      await c.postMultipart(
        '/advertise/brief',
        { ...hidden, qr, ...BRIEF, creativeMode: 'upload' },
        { field: 'creativeFile', name: 'tall.png', type: 'image/png', bytes: tall },
      ),
    );
    expect(ok.status).toBe(200);
    expect(squash(ok.text)).toContain('Your upload (1080×1920)');
  });

  it('refuses a file over the image limit with its size, and answers a malformed or non-form body with a 400 page', async () => {
    const c = await onBrief();
    const big = Buffer.concat([await image('png', 1080, 1920), Buffer.alloc(10 * 1024 * 1024)]);
    const r = await c.postMultipart(
      '/advertise/brief',
      { ...hidden, qr, ...BRIEF, creativeMode: 'upload' },
      { field: 'creativeFile', name: 'big.png', type: 'image/png', bytes: big },
    );
    expect(r.status).toBe(400);
    expect(squash(r.text)).toMatch(/The file was refused: too large: 10\.\d MB, at most 10 MB/);
    const csrf = c.csrf();
    const broken = await c.request('POST', '/advertise/brief', `--x\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n--x`, {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(broken.status).toBe(400);
    expect(broken.headers.get('content-type')).toContain('text/html');
    expect(squash(broken.text)).toContain('The form body is malformed');
    const json = await c.request('POST', '/advertise/brief', JSON.stringify({ _csrf: csrf }), { 'content-type': 'application/json' });
    expect(json.status).toBe(400);
    expect(json.headers.get('content-type')).toContain('text/html');
    expect(squash(json.text)).toContain('Send the form');
  });

  it('pays on the test checkout and lands on the status page; an unknown status token or payment is a 404 page', async () => {
    const c = await onBrief();
    const quote = await c.follow(await c.postMultipart('/advertise/brief', { ...hidden, qr, ...BRIEF }));
    const pay = await c.post('/advertise/pay', formFields(quote.text, '/advertise/pay'));
    const checkout = await c.get(pay.location!);
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain('$99.00');
    const paid = await c.post(pay.location!, {});
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/^\/advertise\/status\/adp_/);
    const status = await c.get(paid.location!);
    expect(status.status).toBe(200);
    expect(statusOf(status.text)).toBe('pending_approval');
    expect(status.text).toContain('Alice Vending Co');
    expect(squash(status.text)).toContain('Price list 2026-01');
    expect((await c.get('/advertise/status/adp_000000000000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await c.get('/advertise/status/nonsense')).status).toBe(404);
    expect((await c.get('/pay/test/pi_nope')).status).toBe(404);
  });

  it('keeps the status token out of every URL but the status page’s own', async () => {
    const c = await onBrief();
    const quote = await c.follow(await c.postMultipart('/advertise/brief', { ...hidden, qr, ...BRIEF }));
    const pay = await c.post('/advertise/pay', formFields(quote.text, '/advertise/pay'));
    const cookie = pay.headers.getSetCookie().find((s) => s.startsWith('vend_purchase='))!;
    expect(cookie).toContain('Path=/pay');
    expect(cookie).toContain('HttpOnly');
    expect(pay.location).not.toContain(c.cookies.get('vend_purchase')!);
  });
});
