import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import jsqrModule from 'jsqr';
import { Secret, TOTP } from 'otpauth';
import { PNG } from 'pngjs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SECRETS } from '../../config.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { call, suiteServer } from '../../testing/harness.ts';
import { checkedFetch } from '../../testing/contract.ts';

/**
 * The whole buyer journey in a real browser (Debian's chromium, driven by playwright-core): from the
 * URL in the kiosk's advertise QR (decoded from the real PNG) through the brief, the quote, the test
 * processor's checkout, to the status page showing pending approval; then the operator signs in (TOTP),
 * approves, and the campaign is in that kiosk's /apk/getAd loop. The browser talks only to the service;
 * any request elsewhere, console error or content-policy violation fails the run. A screenshot of each
 * page goes to .tmp/screenshots/ (not committed). Skips where chromium is not installed; CI requires it.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../.tmp/screenshots');

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: take whichever the loader hands us
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as unknown as Decode;

const KIOSK = 'SBX-ALICE-0001';
const alice = SANDBOX_CREDENTIALS.alice;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** axe-core's serious and critical violations in the page, one line each (injected through DevTools, outside the page's content policy). */
async function axeSerious(page: Page): Promise<string[]> {
  const source = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
  await page.evaluate(source);
  const results = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] })`)) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} ×${v.nodes.length} (${v.help}): ${v.nodes[0]?.target.join(' ')}`);
}

describe.skipIf(!CHROMIUM)('the buyer journey in a browser', () => {
  const t = suiteServer('sqlite');
  let browser: Browser;
  /** Console errors and warnings, page errors, content-policy reports and requests to anywhere but the service. */
  const problems: string[] = [];
  let statusUrl = '';
  let purchaseId = '';

  async function newPage(ctx: BrowserContext): Promise<Page> {
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${t.url}/`) || url.startsWith('data:')) return route.continue();
      problems.push(`request to ${url}`);
      return route.abort();
    });
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The address a kiosk's advertise QR encodes, read from the PNG the operator API serves. */
  async function advertiseUrl(machineNo: string, apiKey: string): Promise<string> {
    const res = await checkedFetch(`${t.url}/api/v1/machines/${machineNo}/advertise-qr`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    expect(decoded).not.toBeNull();
    return decoded!.data;
  }

  /** Fills the brief as a person would: by the labels, typing, choosing. */
  async function fillBrief(page: Page, o: { reach: string; sponsorName: string }): Promise<void> {
    await page.getByLabel('A local business').check();
    await page.getByLabel('Sponsor name').fill(o.sponsorName);
    await page.getByLabel('Your name').fill('Joe Buyer');
    await page.getByLabel('Email address').fill('joe@example.test');
    await page.getByLabel('Phone (optional)').focus();
    await page.keyboard.type('+1 212 555 0100');
    await page.getByLabel(o.reach).check();
    await page.getByLabel('Standard: 1 slot per loop').check();
    await page.getByLabel('For how long?').selectOption('1');
  }

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('buys from the advertise QR: brief, studio design, quote, test checkout, status pending approval', async () => {
    const url = await advertiseUrl(KIOSK, alice.apiKey);
    expect(url).toMatch(new RegExp(`^${t.url}/advertise\\?machine=${KIOSK}&qr=qr_[0-9a-f]{16}$`));
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } }); // a phone
    const page = await newPage(ctx);
    await page.goto(url);
    await expect.poll(() => page.title()).toContain('Advertise on this screen');
    await shot(page, '01-brief');

    // a first try with nothing filled in: the server's errors, summarised and next to their fields (a 400
    // document, which chromium reports on the console: that one report is expected)
    const before = problems.length;
    await page.getByRole('button', { name: 'See the price' }).click();
    await page.locator('#error-summary').waitFor();
    expect(problems.splice(before)).toEqual(['console error: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    expect(await page.locator('#error-summary li').count()).toBeGreaterThan(3);
    await shot(page, '02-brief-errors');

    await fillBrief(page, { reach: 'Only this kiosk (SBX-ALICE-0001)', sponsorName: 'Joe’s Coffee' });
    await page.getByLabel('Have the studio design it from a few words').check();
    await page.getByLabel('What should the studio make?').fill('Fresh coffee two blocks away — 10% off with this screen');
    await page.getByRole('button', { name: 'See the price' }).click();
    await page.getByRole('heading', { name: 'Your price: $99.00' }).waitFor();
    const breakdown = await page.locator('table').first().innerText();
    expect(breakdown).toMatch(/Rate per kiosk per month per slot\s+\$99\.00/);
    expect(breakdown).toMatch(/Volume multiplier \(1 kiosk\)\s+1×/);
    expect(await page.locator('img.preview').count()).toBe(1);
    await shot(page, '03-quote');
    // the quote has its own address (post/redirect/get): a reload opens it again, nothing is posted twice
    expect(page.url()).toMatch(new RegExp(`^${t.url}/advertise/quote/[A-Za-z0-9_.-]+$`));
    await page.reload();
    await page.getByRole('heading', { name: 'Your price: $99.00' }).waitFor();
    expect(await page.locator('img.preview').count()).toBe(1);

    // a quote tampered with in the browser: amounts added to the pay form are ignored
    await page.evaluate(() => {
      const form = document.querySelector('form[action="/advertise/pay"]')!;
      for (const [name, value] of [
        ['totalCents', '1'],
        ['amount', '0.01'],
        ['total', '1'],
      ]) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name!;
        input.value = value!;
        form.appendChild(input);
      }
    });
    await page.getByRole('button', { name: 'Pay $99.00' }).click();
    await page.getByRole('heading', { name: 'Test checkout' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${t.url}/pay/test/pi_`));
    expect(await page.locator('.total').innerText()).toBe('$99.00 USD');
    await shot(page, '04-checkout');

    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#purchase-status').waitFor();
    expect(await page.locator('#purchase-status').getAttribute('data-status')).toBe('pending_approval');
    statusUrl = page.url();
    purchaseId = /\/advertise\/status\/(adp_[^.]+)\./.exec(statusUrl)![1]!;
    const row = await t.ctx.database.db.selectFrom('ad_purchases').select(['total_cents', 'status']).where('id', '=', purchaseId).executeTakeFirstOrThrow();
    expect([Number(row.total_cents), row.status]).toEqual([9900, 'pending_approval']);
    await shot(page, '05-status-pending');

    // Back: the paid checkout links to the status page; Back again: the quote's own address (a GET: no "Confirm Form
    // Resubmission") says this ad was bought (a 409 document: one console report)
    await page.goBack();
    await page.getByRole('heading', { name: 'Paid' }).waitFor();
    expect(await page.getByRole('link', { name: 'See your purchase' }).getAttribute('href')).toBe(new URL(statusUrl).pathname);
    const beforeBack = problems.length;
    await page.goBack();
    await page.getByRole('heading', { name: 'Already bought' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${t.url}/advertise/quote/`));
    expect(problems.splice(beforeBack)).toEqual(['console error: Failed to load resource: the server responded with a status of 409 (Conflict)']);

    // the brief's form address opened by itself: a page in the site's style with the way back, not JSON
    const before404 = problems.length;
    await page.goto(`${t.url}/advertise/brief`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(problems.splice(before404)).toEqual(['console error: Failed to load resource: the server responded with a status of 404 (Not Found)']);
    await page.getByRole('link', { name: `Back to the ad form of kiosk ${KIOSK}` }).click();
    await expect.poll(() => page.title()).toContain('Advertise on this screen');
    await ctx.close();
  });

  it('a replayed payment webhook changes nothing', async () => {
    const { payment_intent_id: intentId } = await t.ctx.database.db
      .selectFrom('ad_purchases')
      .select('payment_intent_id')
      .where('id', '=', purchaseId)
      .executeTakeFirstOrThrow();
    const campaigns = async () => (await t.ctx.database.db.selectFrom('campaigns').select('id').where('ad_purchase_id', '=', purchaseId).execute()).length;
    expect(await campaigns()).toBe(1);
    const again = await t.services.testProcessor!.complete(intentId, t.url);
    expect(again.delivery.status).toBe(200);
    expect(again.delivery.answer).toMatchObject({ data: { duplicate: true } });
    expect(await campaigns()).toBe(1);
    const row = await t.ctx.database.db.selectFrom('ad_purchases').select('status').where('id', '=', purchaseId).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending_approval');
  });

  it('the operator signs in with TOTP and approves; the campaign joins the kiosk’s getAd loop and the buyer sees it approved', async () => {
    const ctx = await browser.newContext();
    const page = await newPage(ctx);
    await page.goto(`${t.url}/advertise/approvals`);
    await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
    await shot(page, '06-signin');
    await page.getByLabel('Email address').fill(alice.email);
    await page.getByLabel('Password').fill(alice.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Enter your verification code' }).waitFor();
    await shot(page, '07-code');
    t.clock.advance(30_000);
    const code = TOTP.generate({ secret: Secret.fromBase32(alice.totpSecret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: t.clock.now() });
    await page.getByLabel('Code from your authenticator app').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Ads to review' }).waitFor();
    expect(await page.locator('article').innerText()).toContain('Joe’s Coffee');
    await shot(page, '08-approvals');

    await page.getByRole('button', { name: 'Approve the ad of Joe’s Coffee' }).click();
    await page.getByText('Approved: the ad is on air').waitFor();
    await shot(page, '09-approved');
    const line = await t.ctx.database.db.selectFrom('ad_purchase_lines').select('campaign_id').where('purchase_id', '=', purchaseId).executeTakeFirstOrThrow();
    const loop = await call<{ data: { entries: { campaignId?: string }[] } }>(t.url, 'GET', '/apk/getAd', {
      headers: { secret: SANDBOX_SECRETS.FLEET_SECRET, equipmentNo: KIOSK },
    });
    expect(loop.status).toBe(200);
    expect(loop.body.data.entries.some((e) => e.campaignId === line.campaign_id)).toBe(true);

    await page.goto(statusUrl);
    expect(await page.locator('#purchase-status').getAttribute('data-status')).toBe('approved');
    await shot(page, '10-status-approved');
    await ctx.close();
  });

  it('never sells an opt-out operator’s kiosk: bob’s QR says not for sale, and the whole network is only alice’s', async () => {
    const ctx = await browser.newContext();
    const page = await newPage(ctx);
    await page.goto(await advertiseUrl('SBX-BOB-0001', SANDBOX_CREDENTIALS.bob.apiKey));
    await page.getByRole('heading', { name: 'This screen is not for sale' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
    await shot(page, '11-not-for-sale');

    await page.goto(await advertiseUrl(KIOSK, alice.apiKey));
    await fillBrief(page, { reach: 'The whole network', sponsorName: 'Network Nuts' });
    await page.getByLabel('Upload my own file').check();
    const fixture = (await import('../creatives/creatives.test-support.ts')).image;
    await page.getByLabel('File to upload').setInputFiles({ name: 'ad.png', mimeType: 'image/png', buffer: await fixture('png', 1080, 1920) });
    await page.getByRole('button', { name: 'See the price' }).click();
    await page.getByRole('heading', { name: /^Your price:/ }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain('Alice Vending Co');
    expect(text).not.toContain('Bob');
    expect(text).not.toContain('SBX-BOB');
    await shot(page, '12-quote-network');
    await ctx.close();
  });

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)(
    'on a %s: the 404 page, the quote, the status page with each refund state and the resubmit form, by keyboard; axe finds nothing serious',
    async (name, size) => {
      const ctx = await browser.newContext(size);
      const page = await newPage(ctx);
      const expectOnly = (from: number, status: string) =>
        expect(problems.splice(from)).toEqual([`console error: Failed to load resource: the server responded with a status of ${status}`]);

      let from = problems.length;
      await page.goto(`${t.url}/advertise/brief`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expectOnly(from, '404 (Not Found)');
      expect(await axeSerious(page)).toEqual([]);

      await page.goto(await advertiseUrl(KIOSK, alice.apiKey));
      await fillBrief(page, { reach: `Only this kiosk (${KIOSK})`, sponsorName: `Gym ${name}` });
      await page.getByLabel('Upload my own file').check();
      const fixture = (await import('../creatives/creatives.test-support.ts')).image;
      await page.getByLabel('File to upload').setInputFiles({ name: 'ad.png', mimeType: 'image/png', buffer: await fixture('png', 1080, 1920) });
      await page.getByRole('button', { name: 'See the price' }).click();
      await page.getByRole('heading', { name: 'Your price: $99.00' }).waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await shot(page, `13-quote-${name}`);
      await page.getByRole('button', { name: 'Pay $99.00' }).click();
      await page.getByRole('button', { name: 'Pay now' }).click();
      await page.locator('#purchase-status').waitFor();
      const status = page.url();
      const id = /\/advertise\/status\/(adp_[^.]+)\./.exec(status)![1]!;

      // alice declines: the refund is owed by her, and the buyer may change the ad
      const reject = () =>
        call(t.url, 'POST', `/api/v1/ad-purchases/${id}/reject`, { headers: { 'x-api-key': alice.apiKey }, json: { reason: 'Too dark for the lobby' } });
      expect((await reject()).status).toBe(200);
      await page.reload();
      await page.getByText('Refund of $99.00 owed by Alice Vending Co').waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await shot(page, `14-status-refund-owed-${name}`);

      // keyboard only: Tab to the studio brief of the resubmit form, type, Tab to the button, Enter
      const brief = page.getByLabel('Or describe a new design for the studio');
      const briefId = await brief.getAttribute('id');
      for (let i = 0; i < 80 && (await page.evaluate(() => document.activeElement?.id)) !== briefId; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(briefId);
      // sent empty first: the form says what is missing, next to the field (a 400 document)
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send for approval again');
      from = problems.length;
      await page.keyboard.press('Enter');
      await page.getByText('Choose a file to upload, or describe a design for the studio').waitFor();
      expectOnly(from, '400 (Bad Request)');
      expect(await axeSerious(page)).toEqual([]);
      await shot(page, `15-resubmit-error-${name}`);
      await page.getByLabel('Or describe a new design for the studio').focus();
      await page.keyboard.type('A brighter poster: morning classes, first one free');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(status);
      expect(await page.locator('#purchase-status').getAttribute('data-status')).toBe('pending_approval');
      expect(await page.getByRole('button', { name: 'Send for approval again' }).count()).toBe(0);

      // declined again; the refund fails, then is issued: each state says so
      expect((await reject()).status).toBe(200);
      const line = await t.ctx.database.db.selectFrom('ad_purchase_lines').select('id').where('purchase_id', '=', id).executeTakeFirstOrThrow();
      await t.services.store.repos.adPurchases.refundFailed(line.id, 0, 'The payment processor could not refund: card expired', null, t.clock.now());
      await page.reload();
      await page.getByText('The refund could not be made: The payment processor could not refund: card expired').waitFor();
      expect(await axeSerious(page)).toEqual([]);
      const refund = await call(t.url, 'POST', `/api/v1/ad-purchases/${id}/refund`, { headers: { 'x-api-key': alice.apiKey }, json: {} });
      expect(refund.status).toBe(200);
      await page.reload();
      await page.getByText(/^Refunded \$99\.00 on \d{4}-\d{2}-\d{2}/).waitFor();
      expect(await page.getByRole('button', { name: 'Send for approval again' }).count()).toBe(0);
      expect(await axeSerious(page)).toEqual([]);
      await shot(page, `16-status-refunded-${name}`);
      await ctx.close();
    },
  );

  it('loads nothing from elsewhere, logs no console error and breaks no content policy', () => {
    expect(problems).toEqual([]);
  });
});
