import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { axeSource, listViolations, runAxe, WHOLE_PAGE } from '../meta/docs-axe.ts';
import { checkoutFor, moneyAndDrops, ownedCabinet, type Cabinet } from './kiosk-checkout.test-support.ts';

/**
 * The shopper's phone page in a real browser (Debian's chromium through playwright-core) at a phone's size
 * (390×844): axe finds nothing critical or serious, nothing is fetched from outside and the content policy is
 * never broken; the shopper pays through the test processor's page and lands back on it; its one script then
 * follows the drop without a reload. Skips where chromium is not installed.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

describe.skipIf(!CHROMIUM)("the shopper's phone page in a browser", () => {
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  /** Console errors, page errors (a content-policy violation is one) and requests to anywhere but the service. */
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestServer('sqlite');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${t.url}/`)) return route.continue();
      problems.push(`request to ${url}`);
      return route.abort();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${t.url}${path}`);
    return page;
  }

  async function axe(page: Page): Promise<void> {
    await page.evaluate(axeSource());
    const serious = (await runAxe(page, WHOLE_PAGE)).filter((v) => v.impact === 'critical' || v.impact === 'serious');
    expect(serious, listViolations(serious)).toEqual([]);
  }

  it('pays, comes back and follows the drop to "take your product", accessible at each step', async () => {
    const c: Cabinet = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    const page = await open(new URL(d.payUrl).pathname);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Pay for ${d.name!}`);
    const first = await page.locator('#time-left').textContent();
    await page.waitForTimeout(1_300);
    expect(await page.locator('#time-left').textContent()).not.toBe(first);
    await axe(page);

    await page.getByRole('link', { name: /^Pay / }).click();
    await page.waitForURL(/\/pay\/test\//);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(d.payUrl);
    expect(await page.locator('h1').textContent()).toBe('Paid: take your product from the machine');
    await axe(page);

    const { commands } = await moneyAndDrops(t, d.checkoutId);
    const r = await call(t.url, 'POST', '/cabinet/report', {
      headers: c.headers,
      json: { dispenseId: `d-${commands[0]!.id}`, commandId: commands[0]!.id, aisleNo: 2, success: true, outcome: 'vended' },
    });
    expect(r.status).toBe(200);
    // no reload: the script reads the page again and swaps in the new state, focus on its heading
    await page.waitForFunction(() => document.getElementById('checkout')?.getAttribute('data-final') === 'true', undefined, { timeout: 10_000 });
    expect(await page.locator('h1').textContent()).toBe('Take your product from the machine');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('checkout-heading');
    await axe(page);
    expect(problems).toEqual([]);
  });
});
