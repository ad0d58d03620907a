import { describe, expect, it } from 'vitest';
import { CHECKOUT_TTL_SECONDS, type CheckoutData } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { BOB } from '../gateway/gateway.test-support.ts';
import { PageClient } from '../marketplace-pages/pages.test-support.ts';
import { BUY_SCRIPT_PATH } from './buy-script.ts';
import { cancelCheckout, checkoutFor, checkoutRow, moneyAndDrops, ownedCabinet, payByPhone, type Cabinet } from './kiosk-checkout.test-support.ts';

/** The phone page of a checkout as a phone reads it. */
async function page(base: string, d: CheckoutData) {
  return new PageClient(base).get(new URL(d.payUrl).pathname);
}

/** The page's text without its markup (what a person reads). */
const words = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe.each(DIALECTS)("the shopper's phone page on %s", (dialect) => {
  const t = suiteServer(dialect);

  async function named(c: Cabinet) {
    await t.ctx.database.db
      .updateTable('machines')
      .set({ name: 'Station kiosk', location: 'Platform 2, Central Station' })
      .where('id', '=', c.machineId)
      .execute();
  }

  it("awaiting payment: the product, its price in the operator's currency, the machine and where it is, the time left and the Pay button", async () => {
    const c = await ownedCabinet(t);
    await named(c);
    const d = await checkoutFor(t, c, 1);
    const p = await page(t.url, d);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toMatch(/^text\/html/);
    const text = words(p.text);
    expect(text).toContain(`Pay for ${d.name!}`);
    expect(text).toContain(`$${d.amount.toFixed(2)}`);
    expect(text).toContain('Station kiosk');
    expect(text).toContain('Platform 2, Central Station');
    expect(text).toContain(`Time left ${Math.floor(CHECKOUT_TTL_SECONDS / 60)} min 0 s`);
    const row = await checkoutRow(t, d.checkoutId);
    expect(p.text).toContain(`<a class="button" href="${row.checkout_url!}">Pay $${d.amount.toFixed(2)}</a>`);
    expect(p.text).toMatch(/<h1 id="checkout-heading"/);
    expect(p.text).toMatch(/<html lang="en">/);
    expect(p.text).toContain('data-final="false"');
    await cancelCheckout(t, c, d.checkoutId);
  });

  it('sends the pages’ security headers, allows only its own script, and loads nothing from outside', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 1);
    const p = await page(t.url, d);
    const csp = p.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(p.headers.get('cache-control')).toBe('no-store');
    expect(p.headers.get('referrer-policy')).toBe('no-referrer');
    // every asset the page loads is this service's own
    for (const m of p.text.matchAll(/\s(?:src|href)="([^"]+)"/g)) expect(m[1]!.startsWith('/') || m[1]!.startsWith('#'), m[1]).toBe(true);
    expect(p.text).not.toMatch(/<script>|\sstyle="|\son[a-z]+="/);
    const script = await fetch(`${t.url}${BUY_SCRIPT_PATH}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(p.text).toContain(`<script src="${BUY_SCRIPT_PATH}" defer></script>`);
    await cancelCheckout(t, c, d.checkoutId);
  });

  it("bob's cabinet shows its price in pounds", async () => {
    const c = await ownedCabinet(t, BOB);
    const d = await checkoutFor(t, c, 1);
    expect(words((await page(t.url, d)).text)).toContain(`£${d.amount.toFixed(2)}`);
    await cancelCheckout(t, c, d.checkoutId);
  });

  it('paid, then vended: "take your product from the machine"; refreshing itself until the drop is done', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 3);
    expect((await payByPhone(t, d)).status).toBe(303);
    const paid = await page(t.url, d);
    expect(words(paid.text)).toContain('Paid: take your product from the machine');
    expect(paid.text).toContain('data-final="false"');
    expect(paid.text).not.toMatch(/>Pay \$/);
    const { commands } = await moneyAndDrops(t, d.checkoutId);
    await call(t.url, 'POST', '/cabinet/report', {
      headers: c.headers,
      json: { dispenseId: `d-${commands[0]!.id}`, commandId: commands[0]!.id, aisleNo: 3, success: true, outcome: 'vended' },
    });
    const vended = await page(t.url, d);
    expect(words(vended.text)).toContain('Take your product from the machine');
    expect(vended.text).toContain('data-final="true"');
  });

  it('failed: "could not vend: your refund is on its way"', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 3);
    await payByPhone(t, d);
    const { commands } = await moneyAndDrops(t, d.checkoutId);
    await call(t.url, 'POST', '/cabinet/report', {
      headers: c.headers,
      json: { dispenseId: `d-${commands[0]!.id}`, commandId: commands[0]!.id, aisleNo: 3, success: false, outcome: 'motor_jam' },
    });
    const p = await page(t.url, d);
    expect(words(p.text)).toContain('Could not vend: your refund is on its way');
    expect(words(p.text)).toContain('could not drop your product');
    // the page keeps following the checkout until its refund is issued (kiosk-refunds.int.test.ts)
    expect(p.text).toContain('data-final="false"');
  });

  it('expired: "this code expired, choose again on the screen" (and, paid too late, the refund on its way)', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    t.clock.advance(CHECKOUT_TTL_SECONDS * 1000);
    const p = await page(t.url, d);
    expect(words(p.text)).toContain('This code expired: choose again on the screen');
    expect(words(p.text)).not.toContain('refund');
    expect(p.text).not.toContain('class="button"');
    expect(p.text).toContain('data-final="true"');

    const late = await checkoutFor(t, c, 2);
    await payByPhone(t, late, async () => {
      t.clock.advance(CHECKOUT_TTL_SECONDS * 1000);
    });
    expect(words((await page(t.url, late)).text)).toMatch(
      /This code expired.*arrived after that, so nothing was dropped\. Your refund of \$\d+\.\d\d is on its way/,
    );
  });

  it('cancelled: says so, and to choose again on the screen', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    await cancelCheckout(t, c, d.checkoutId);
    const p = await page(t.url, d);
    expect(words(p.text)).toContain('This purchase was cancelled: choose again on the screen');
    expect(p.text).toContain('data-final="true"');
  });

  it('an unknown or malformed checkout is the not-found page', async () => {
    for (const id of [`chk_${'0'.repeat(32)}`, 'nope', 'chk_../../etc']) {
      const p = await new PageClient(t.url).get(`/buy/${encodeURIComponent(id)}`);
      expect(p.status, id).toBe(404);
      expect(p.headers.get('content-type')).toMatch(/^text\/html/);
      expect(words(p.text)).toContain('Checkout not found');
    }
  });
});
