import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SANDBOX, api, cleanup, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { CHROMIUM, PHONE_SIZE, axeSerious, guardedContext } from './support/kiosk-browser.ts';
import { ALICE, BOB, DESKTOP_SIZE, consoleShot, signIn, weigh, startConsoleRig } from './support/console-browser.ts';

// The console's sales and orders pages (apps/console/src/sales-view.ts, orders-view.ts; docs/console.md) in chromium
// against the cloud sandbox (90 days of seeded orders per machine): the figures on the page are what
// GET /api/v1/orders/summary and GET /api/v1/orders answer for the same query; filters narrow both; paging and the
// order's detail work, by keyboard too; axe finds nothing serious; bob sees none of alice's machines or orders.

const dir = tempDir('console-sales-');
let cloud: CloudProc;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;
const problems: string[] = [];
/** Bob's sandbox API key (apps/cloud/src/db/seed.ts), to ask the API what bob's own figures are. */
const BOB_KEY = 'vk_5bb0b00000000001.sbx-bob-key-c3e822f1';

interface Money {
  count: number;
  grossCents: number;
  refundedCents: number;
  salesCents: number;
  taxCents: number;
  netCents: number;
}
interface Summary extends Money {
  currency: string | null;
  timeZone: string;
  byMachine: (Money & { machineNo: string })[];
  byDay: (Money & { date: string })[] | null;
}
interface OrdersPage {
  total: number;
  records: { orderNumber: string; machineNo: string; chargedCents: number; payStatus: string }[];
}

const usd = (c: number, currency: string | null) => new Intl.NumberFormat('en-US', { style: 'currency', currency: currency ?? 'USD' }).format(c / 100);
const summaryOf = async (query: Record<string, string>, key: string = SANDBOX.alice) =>
  (await api<Summary>(cloud.url, 'GET', `/api/v1/orders/summary?${new URLSearchParams(query)}`, key)).data;
const ordersOf = async (query: Record<string, string>, key: string = SANDBOX.alice) =>
  (await api<OrdersPage>(cloud.url, 'GET', `/api/v1/orders?${new URLSearchParams(query)}`, key)).data;

/** The per-day table as the page shows it: date → the cells (orders, gross, refunded, sales, tax, net). */
const dayRows = (page: Page) =>
  page
    .locator('.per-day tbody tr')
    .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-date')!, Array.from(r.querySelectorAll('td'), (c) => c.textContent)]));
const orderRows = (page: Page) => page.locator('.orders-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order')!));
/** Nothing wider than the screen: the tables scroll inside their frame, never the page sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const cellsOf = (m: Money, cur: string | null) => [
  String(m.count),
  usd(m.grossCents, cur),
  usd(m.refundedCents, cur),
  usd(m.salesCents, cur),
  usd(m.taxCents, cur),
  usd(m.netCents, cur),
];

/** The page's per-day figures equal the API's summary over the same days (the first and last the page shows). */
async function expectSalesAsApi(page: Page, days: number, machineNo?: string, key: string = SANDBOX.alice): Promise<Summary> {
  const rows = await dayRows(page);
  expect(rows).toHaveLength(days);
  const window = { startTime: `${rows[0]![0]} 00:00:00`, endTime: `${rows[days - 1]![0]} 23:59:59` };
  const s = await summaryOf(machineNo ? { machineNo, ...window } : window, key);
  expect(s.byDay).toHaveLength(days);
  expect(rows).toEqual(s.byDay!.map((d) => [d.date, cellsOf(d, s.currency)]));
  expect(await page.locator('[data-figure="sales"] dd').textContent()).toBe(usd(s.salesCents, s.currency));
  expect(await page.locator('[data-figure="net"] dd').textContent()).toBe(usd(s.netCents, s.currency));
  const machines = await page.locator('.per-machine tbody tr').evaluateAll((r) => r.map((x) => x.getAttribute('data-machine')));
  expect(machines).toEqual(s.byMachine.map((m) => m.machineNo));
  return s;
}

async function coldWeight(context: BrowserContext, size: object, path: string, heading: string, label: string): Promise<void> {
  const fresh = await guardedContext(browser, { ...size, storageState: await context.storageState() }, [cloud.url], problems);
  const cold = await fresh.newPage();
  await cold.goto(`${cloud.url}${path}`);
  await cold.getByRole('heading', { level: 1, name: heading }).waitFor();
  await cold.locator('.sub').first().waitFor();
  process.stdout.write(`console ${label} (sandbox, cold): ${JSON.stringify(await weigh(cold))}\n`);
  await fresh.close();
}

describe.skipIf(!CHROMIUM)('the console sales and orders pages in chromium', () => {
  beforeAll(async () => {
    ({ cloud, browser, phone } = await startConsoleRig(dir, problems));
    const page = await phone.newPage();
    await signIn(page, cloud.url, '/console/sales', ALICE);
    await page.close();
    desktop = await guardedContext(browser, { ...DESKTOP_SIZE, storageState: await phone.storageState() }, [cloud.url], problems);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await cleanup(dir);
  });

  it('on a phone, the sales page shows the last 7 days per day and per machine as the API answers them; axe finds nothing serious', async () => {
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/sales`);
    await page.locator('#sales-window').waitFor();
    const s = await expectSalesAsApi(page, 7);
    expect(s.count).toBeGreaterThan(0);
    expect(s.byMachine.map((m) => m.machineNo)).toEqual(expect.arrayContaining(['SBX-ALICE-0001', 'SBX-ALICE-0002']));
    expect(await page.getByRole('img', { name: /Sales per day, last 7 days/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: 'Sales per machine' }).count()).toBe(1);
    expect(await page.locator('.per-machine tbody a').first().getAttribute('href')).toBe(`/console/machines/${s.byMachine[0]!.machineNo}`);
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: consoleShot('sales-phone'), fullPage: true });
    await coldWeight(phone, PHONE_SIZE, '/console/sales', 'Sales', 'sales (phone)');
    await page.close();
  });

  it('on a desktop, the machine filter and the period reload the series for one machine, in its time zone', async () => {
    const page = await desktop.newPage();
    await page.goto(`${cloud.url}/console/sales`);
    await page.locator('#sales-window').waitFor();
    const fleet = await dayRows(page);
    await page.getByLabel('Machine', { exact: true }).selectOption('SBX-ALICE-0003');
    await page.getByLabel('Period', { exact: true }).selectOption('30');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/machineNo=SBX-ALICE-0003/);
    await page.locator('#sales-window').waitFor();
    expect(new URL(page.url()).searchParams.get('days')).toBe('30');
    const s = await expectSalesAsApi(page, 30, 'SBX-ALICE-0003');
    expect(s.timeZone).toBe('America/Los_Angeles');
    expect(s.byMachine.map((m) => m.machineNo)).toEqual(s.count ? ['SBX-ALICE-0003'] : []);
    expect(await page.locator('#sales-window').textContent()).toContain('America/Los_Angeles');
    // the one machine's last week is not the fleet's
    expect((await dayRows(page)).slice(-7)).not.toEqual(fleet);
    // a reload keeps the choice
    await page.reload();
    await page.locator('#sales-window').waitFor();
    expect(await page.getByLabel('Machine', { exact: true }).inputValue()).toBe('SBX-ALICE-0003');
    expect(await dayRows(page)).toHaveLength(30);
    await page.goto(`${cloud.url}/console/sales`);
    await page.locator('#sales-window').waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: consoleShot('sales-desktop'), fullPage: true });
    await coldWeight(desktop, DESKTOP_SIZE, '/console/sales', 'Sales', 'sales (desktop)');
    await page.close();
  });

  it('on a desktop, the orders filter by machine narrows the list to what the API answers; paging and the detail work', async () => {
    const page = await desktop.newPage();
    await page.goto(`${cloud.url}/console/orders`);
    await page.locator('#orders-count').waitFor();
    const all = await ordersOf({ size: '20' });
    expect(await orderRows(page)).toEqual(all.records.map((o) => o.orderNumber));
    await page.getByLabel('Machine', { exact: true }).selectOption('SBX-ALICE-0002');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/machineNo=SBX-ALICE-0002/);
    await page.locator('#orders-count').waitFor();
    const p1 = await ordersOf({ machineNo: 'SBX-ALICE-0002', size: '20' });
    expect(p1.total).toBeGreaterThan(40);
    expect(p1.total).toBeLessThan(all.total);
    expect(await orderRows(page)).toEqual(p1.records.map((o) => o.orderNumber));
    expect(await page.locator('#orders-count').textContent()).toContain(`${p1.total} orders`);
    // paging keeps the filter
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await page.locator('#orders-count').waitFor();
    expect(new URL(page.url()).searchParams.get('machineNo')).toBe('SBX-ALICE-0002');
    const p2 = await ordersOf({ machineNo: 'SBX-ALICE-0002', size: '20', page: '2' });
    expect(await orderRows(page)).toEqual(p2.records.map((o) => o.orderNumber));
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL((u) => !u.searchParams.has('page'));
    await page.locator('#orders-count').waitFor();
    expect(await orderRows(page)).toEqual(p1.records.map((o) => o.orderNumber));
    // the first order's detail
    const first = p1.records[0]!;
    await page.getByRole('button', { name: first.orderNumber }).click();
    const dialog = page.getByRole('dialog', { name: `Order ${first.orderNumber}` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(usd(first.chargedCents, 'USD'));
    expect(await dialog.textContent()).toContain('SBX-ALICE-0002');
    expect(await axeSerious(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // an empty result says so
    await page.goto(`${cloud.url}/console/orders?machineNo=SBX-ALICE-0002&from=2001-01-01&to=2001-01-31`);
    await page.locator('#orders-count').waitFor();
    expect(await page.locator('#orders-count').textContent()).toBe('No orders match these filters.');
    expect(await page.locator('.orders-table').count()).toBe(0);
    await page.goto(`${cloud.url}/console/orders`);
    await page.locator('#orders-count').waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: consoleShot('orders-desktop'), fullPage: true });
    await coldWeight(desktop, DESKTOP_SIZE, '/console/orders', 'Orders', 'orders (desktop)');
    await page.close();
  });

  it('on a phone, the pay-status filter narrows the list as the API does; axe finds nothing serious', async () => {
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/orders`);
    await page.locator('#orders-count').waitFor();
    await page.getByLabel('Pay status', { exact: true }).selectOption('refunded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/payStatus=refunded/);
    await page.locator('#orders-count').waitFor();
    const refunded = await ordersOf({ payStatus: 'refunded', size: '20' });
    expect(refunded.total).toBeGreaterThan(0);
    expect(await orderRows(page)).toEqual(refunded.records.map((o) => o.orderNumber));
    expect(await page.locator('.orders-table .badge').allTextContents()).toEqual(refunded.records.map(() => 'refunded'));
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeSerious(page)).toEqual([]);
    await page.screenshot({ path: consoleShot('orders-phone'), fullPage: true });
    await coldWeight(phone, PHONE_SIZE, '/console/orders', 'Orders', 'orders (phone)');
    await page.close();
  });

  it('by keyboard only, alice filters the orders by machine and opens one; Escape returns her to it', async () => {
    const page = await phone.newPage();
    await page.goto(`${cloud.url}/console/orders`);
    await page.locator('#orders-count').waitFor();
    const tabUntil = async (test: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(test)) return;
      }
      throw new Error(`Tab never reached ${test}`);
    };
    await tabUntil(`document.activeElement?.id === 'of-machine'`);
    for (let i = 0; i < 5 && (await page.locator('#of-machine').inputValue()) !== 'SBX-ALICE-0003'; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('#of-machine').inputValue()).toBe('SBX-ALICE-0003');
    await tabUntil(`document.activeElement?.textContent === 'Filter'`);
    await page.keyboard.press('Enter');
    await page.waitForURL(/machineNo=SBX-ALICE-0003/);
    await page.locator('#orders-count').waitFor();
    const la = await ordersOf({ machineNo: 'SBX-ALICE-0003', size: '20' });
    expect(await orderRows(page)).toEqual(la.records.map((o) => o.orderNumber));
    await tabUntil(`document.activeElement?.classList.contains('link') === true`);
    const chosen = await page.evaluate(() => document.activeElement?.textContent);
    expect(chosen).toBe(la.records[0]!.orderNumber);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Order ${chosen}` });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(chosen);
    await page.close();
  });

  it("bob, signed in, sees none of alice's machines or orders on either page", async () => {
    const context = await guardedContext(browser, PHONE_SIZE, [cloud.url], problems);
    const page = await context.newPage();
    await signIn(page, cloud.url, '/console/sales', BOB);
    await page.locator('#sales-window').waitFor();
    // his own figures (in his currency), as the API answers his key
    const s = await expectSalesAsApi(page, 7, undefined, BOB_KEY);
    expect(s.currency).toBe('GBP');
    expect(s.byMachine.every((m) => m.machineNo.startsWith('SBX-BOB-'))).toBe(true);
    const sales = await page.locator('main').textContent();
    expect(sales).not.toContain('SBX-ALICE');
    expect(await page.locator('#sales-machine option').allTextContents()).not.toContainEqual(expect.stringContaining('ALICE'));
    await page.goto(`${cloud.url}/console/orders`);
    await page.locator('#orders-count').waitFor();
    const mine = await ordersOf({ size: '20' }, BOB_KEY);
    expect(await orderRows(page)).toEqual(mine.records.map((o) => o.orderNumber));
    expect(await page.locator('main').textContent()).not.toContain('SBX-ALICE');
    // alice's machine named in the address is "Machine not found" on both pages, with no figures
    const seen = problems.length;
    for (const path of ['/console/sales?machineNo=SBX-ALICE-0001', '/console/orders?machineNo=SBX-ALICE-0001']) {
      await page.goto(cloud.url + path);
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toBe('Machine not found');
      expect(await page.locator('main').textContent()).not.toMatch(/SBX-ALICE-0002|\$/);
    }
    expect(problems.slice(seen).every((p) => p.includes('status of 404'))).toBe(true);
    problems.splice(seen);
    await context.close();
  });

  it('no page reached another origin or logged an error', () => {
    expect(problems).toEqual([]);
  });
});
