import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkedFetch } from '@vend/cloud/testing/contract';
import { SANDBOX, api, cleanup, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { CHROMIUM, axeSerious, guardedContext } from './support/kiosk-browser.ts';
import { ALICE, DESKTOP_SIZE, consoleShot as shot, signIn, startConsoleRig, tabTo } from './support/console-browser.ts';

// The console's review of self-serve ad purchases in Debian's chromium against the cloud sandbox, on a phone and a
// desktop: the creative opened at full size from the approval dialog (keyboard in and out), and the refund of a
// rejected line through the sandbox's test processor after its confirmation — the processor unreachable first (the
// answer replaced in the browser: nothing recorded, the dialog says so), then issued, the line's state following.
// The purchases are bought here through the public marketplace (a poster from the built-in studio, paid on the test
// processor) and one is rejected through the API, so nothing depends on the sandbox seed's purchases.

const dir = tempDir('console-ad-review-');
let cloud: CloudProc;
let browser: Browser;
let phone: BrowserContext;
const problems: string[] = [];
const flash = (page: Page) => page.locator('#flash');
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const focused = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '').trim());

interface Refund {
  status: 'owed' | 'issued' | 'failed';
  amountCents: number;
  reason: string | null;
  refundId: string | null;
}
interface Purchase {
  id: string;
  sponsorName: string;
  buyer: { name: string };
  creative: { url: string; width: number; height: number };
  lines: { status: string; amountCents: number; refund: Refund | null }[];
}

const alice = <T>(method: string, path: string, body?: unknown) => api<T>(cloud.url, method, path, SANDBOX.alice, body).then((r) => r.data);

async function market<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await checkedFetch(cloud.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** A buyer has the built-in studio design a poster, buys a month of one slot on every kiosk in New York and pays: pending approval. */
async function paidPurchase(sponsorName: string, buyer: string, brief: string): Promise<string> {
  const draft = await market<{ draftToken: string; creatives: { id: string }[] }>('POST', '/api/v1/marketplace/drafts/generate', { brief, sponsorName });
  const bought = await market<{ purchaseId: string; paymentIntentId: string }>('POST', '/api/v1/marketplace/purchases', {
    sponsorType: 'local-business',
    reach: { kind: 'city', city: 'New York' },
    slots: 1,
    months: 1,
    sponsorName,
    buyer: { name: buyer, email: `${buyer.split(' ')[0]!.toLowerCase()}@shop.example`, phone: '+1 212 555 0100' },
    creative: { draftToken: draft.draftToken, creativeId: draft.creatives[0]!.id },
  });
  await market('POST', `/api/v1/marketplace/test-payments/${bought.paymentIntentId}/complete`);
  return bought.purchaseId;
}

/** A paid purchase alice rejected: its line owes the buyer a refund. */
async function rejectedPurchase(sponsorName: string, buyer: string, brief: string): Promise<string> {
  const id = await paidPurchase(sponsorName, buyer, brief);
  await alice('POST', `/api/v1/ad-purchases/${id}/reject`, { reason: 'Not a fit for our lobby screens.' });
  return id;
}

/** The browser's next answer to a refund call replaced by the service's envelope with this status (the processor's failures). */
async function refundAnswers(page: Page, status: number, message: string): Promise<void> {
  await page.route(
    '**/api/v1/ad-purchases/*/refund',
    (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ code: status, message, data: null }) }),
    { times: 1 },
  );
}

/** Takes the console's logged failed request of this status off the list of problems (it was provoked). */
function expectLogged(status: number): void {
  const at = problems.findIndex((p) => p.includes(`status of ${status}`));
  expect(at).toBeGreaterThanOrEqual(0);
  problems.splice(at, 1);
}

let pending: string;
let florist: string;
let garage: string;

describe.skipIf(!CHROMIUM)('reviewing ad purchases in the console (chromium)', () => {
  beforeAll(async () => {
    ({ cloud, browser, phone } = await startConsoleRig(dir, problems));
    pending = await paidPurchase('Pine Cafe', 'Pia Pine', 'Soup and sandwich for 9.50. Open till 3 on weekdays. Dark green and cream.');
    florist = await rejectedPurchase('Moss Florist', 'Mo Moss', 'Fresh tulips every Friday. Pale pink and navy.');
    garage = await rejectedPurchase('Gear Garage', 'Gil Gear', 'Oil change in 20 minutes, no appointment.');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await cleanup(dir);
  });

  /** Opens the approval of Pine Cafe and, from it, its creative at full size, by keyboard; checks the view and closes it again. */
  async function fullSizeByKeyboard(page: Page, screenshot: string): Promise<void> {
    await page.goto(`${cloud.url}/console/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
    const p = await alice<Purchase>('GET', `/api/v1/ad-purchases/${pending}`);
    expect([p.creative.width, p.creative.height]).toEqual([1080, 1920]);
    await tabTo(page, 'Approve Pine Cafe');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Approve Pine Cafe?' }).waitFor();
    const view = 'View full size: the creative of Pine Cafe';
    // the approval with its new button passes axe too (the button's name starts with its visible words)
    expect(await axeSerious(page)).toEqual([]);
    await tabTo(page, view);
    await page.keyboard.press('Enter');
    const viewer = page.locator('dialog.viewer');
    await viewer.getByRole('heading', { name: 'Pine Cafe: the creative, image 1080×1920' }).waitFor();
    expect(await focused(page)).toBe('Close');
    const img = viewer.getByRole('img', { name: 'The creative of Pine Cafe' });
    expect(await img.getAttribute('src')).toBe(p.creative.url);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1080);
    // as large as the viewport allows, all of it inside, its 9:16 kept — and far larger than the 200 px thumbnail
    const box = (await img.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.width / box.height).toBeCloseTo(1080 / 1920, 2);
    expect(box.height).toBeGreaterThan(viewport.height * 0.6);
    expect(await viewer.getByRole('link', { name: 'Open the file in a new tab (1080×1920)' }).getAttribute('href')).toBe(p.creative.url);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot(screenshot) });
    // Escape closes the full-size view only: the approval stays open, focus back on the button that opened it
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(await page.locator('dialog.ledger-dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await focused(page)).toBe(view);
    // again, closed with its Close button (focused first) by Enter
    await page.keyboard.press('Enter');
    await expect.poll(() => viewer.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => viewer.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(await focused(page)).toBe(view);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog.ledger-dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    // looking sends nothing
    expect((await alice<Purchase>('GET', `/api/v1/ad-purchases/${pending}`)).lines[0]!.status).toBe('pending_approval');
  }

  it('on a phone, by keyboard: the creative opens full size from the approval, fits the screen, and closes', async () => {
    const page = await phone.newPage();
    await signIn(page, cloud.url, '/console/campaigns', ALICE);
    await fullSizeByKeyboard(page, 'creative-full-size-phone');
    await page.close();
  });

  it('on a desktop, by keyboard: the same full-size view', async () => {
    const desktop = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: await phone.storageState() }, [cloud.url], problems);
    const page = await desktop.newPage();
    await fullSizeByKeyboard(page, 'creative-full-size-desktop');
    await desktop.close();
  });

  it('on a phone, by keyboard: a rejected line’s refund — the processor unreachable, nothing recorded — then issued', async () => {
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/campaigns`);
    await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
    const before = (await alice<Purchase>('GET', `/api/v1/ad-purchases/${florist}`)).lines[0]!;
    expect(before).toMatchObject({ status: 'rejected', refund: { status: 'owed' } });
    const amount = usd(before.refund!.amountCents);
    expect(await page.locator(`[data-refund-status="${florist}"]`).textContent()).toBe('owed');
    // a line still waiting, or approved, has no refund button
    expect(await page.getByRole('button', { name: /^Refund .* Pine Cafe$/ }).count()).toBe(0);

    await refundAnswers(page, 503, 'Payment processor unreachable (ECONNREFUSED)');
    await tabTo(page, `Refund ${amount} to the buyer of Moss Florist`);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Refund Moss Florist?' });
    await dialog.waitFor();
    expect(await dialog.locator('.ledger-terms .amount').textContent()).toBe(amount);
    expect(await dialog.textContent()).toContain('Mo Moss');
    expect(await dialog.textContent()).toContain('Not a fit for our lobby screens.');
    // the safe choice has focus; the refund is one step back, named with the amount
    expect(await focused(page)).toBe('Cancel');
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: shot('refund-confirm-phone') });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe(`Refund ${amount}`);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe(
        'The payment processor is unreachable: nothing was recorded and no money moved. Try again in a moment. (Payment processor unreachable (ECONNREFUSED))',
      );
    expect((await alice<Purchase>('GET', `/api/v1/ad-purchases/${florist}`)).lines[0]!.refund!.status).toBe('owed');
    expectLogged(503);

    // again: the sandbox's test processor issues it
    await page.keyboard.press('Enter');
    await expect.poll(() => flash(page).textContent()).toMatch(/^Refund issued/);
    const after = (await alice<Purchase>('GET', `/api/v1/ad-purchases/${florist}`)).lines[0]!;
    expect(after.refund).toMatchObject({ status: 'issued', amountCents: before.refund!.amountCents });
    expect(after.refund!.refundId).toBeTruthy();
    expect(await flash(page).textContent()).toBe(`Refund issued: ${amount} to Mo Moss (refund ${after.refund!.refundId})`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('flash');
    expect(await page.locator(`[data-refund-status="${florist}"]`).textContent()).toBe('issued');
    expect(await page.getByRole('button', { name: `Refund ${amount} to the buyer of Moss Florist` }).count()).toBe(0);
    await page.close();
  });

  it('on a desktop: the processor refuses (its reason shown), then the refund is issued', async () => {
    const desktop = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: await phone.storageState() }, [cloud.url], problems);
    const page = await desktop.newPage();
    await page.goto(`${cloud.url}/console/campaigns`);
    const amount = usd((await alice<Purchase>('GET', `/api/v1/ad-purchases/${garage}`)).lines[0]!.refund!.amountCents);
    const button = page.getByRole('button', { name: `Refund ${amount} to the buyer of Gear Garage` });
    const dialog = page.getByRole('dialog', { name: 'Refund Gear Garage?' });

    await refundAnswers(page, 502, 'The payment processor could not refund: card_expired');
    await button.click();
    await dialog.getByRole('button', { name: `Refund ${amount}` }).click();
    await expect
      .poll(() => flash(page).textContent())
      .toBe('Refund failed: The payment processor could not refund: card_expired. The line shows the reason; you can try again.');
    expectLogged(502);

    await button.click();
    expect(await axeSerious(page)).toEqual([]);
    await dialog.getByRole('button', { name: `Refund ${amount}` }).click();
    await expect.poll(() => flash(page).textContent()).toMatch(/^Refund issued: .* to Gil Gear \(refund .+\)$/);
    expect((await alice<Purchase>('GET', `/api/v1/ad-purchases/${garage}`)).lines[0]!.refund!.status).toBe('issued');
    expect(await page.locator(`[data-refund-status="${garage}"]`).textContent()).toBe('issued');
    expect(await axeSerious(page)).toEqual([]);
    await page.getByRole('region', { name: /Paid ad purchases/ }).screenshot({ path: shot('refunds-desktop') });
    await desktop.close();
  });

  it('nothing in any page reached another origin or logged an error', () => {
    expect(problems).toEqual([]);
  });
});
