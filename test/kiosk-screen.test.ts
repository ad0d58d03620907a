import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { KioskCheckout, KioskScreen } from '@vend/protocol';
import { socatAvailable } from '@vend/firmware-sim';
import { buildKioskScreen } from '../scripts/build-kiosk-screen.ts';
import { SANDBOX, api, cleanup, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';
import { CHROMIUM, KIOSK_SIZE, PHONE_SIZE, axeSerious, guardedContext, launchChromium, shotPath } from './support/kiosk-browser.ts';
import { openStoreReadonly } from './support/sqlite.ts';

// The kiosk's own screen in a real browser (Debian's chromium through playwright-core) at the kiosk's
// portrait 1080×1920, against real processes: the cloud sandbox, `vmc-sim` on a pseudo-terminal pair and
// `vend-agent run` serving the screen at /screen/. A second browser context at a phone's size is the
// shopper's phone. Time in the page runs 5× (`?speed=5`): slots of 15 s last 3 s.

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: take whichever the loader hands us
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as unknown as Decode;

const MACHINE = 'SBX-ALICE-0001';
const SERVICE_CODE = '24681357';
const dir = tempDir('kiosk-screen-');
let cloud: CloudProc;
let sim: SimProc;
let agent: AgentProc;
let browser: Browser;
let kioskContext: BrowserContext;
let phoneContext: BrowserContext;
let kiosk: Page;
const problems: string[] = [];

type Order = { orderNumber: string; payStatus: string; channel: string; paidPrice: number };
type ScreenWindow = { kioskScreen: { mode: string; player: { reported: number; skipped: number } } };

const screenState = async (): Promise<KioskScreen> => (await (await fetch(`${agent.control}/v1/kiosk/screen`)).json()) as KioskScreen;
const currentCheckout = async (): Promise<KioskCheckout | null> => {
  const res = await fetch(`${agent.control}/v1/kiosk/checkouts/current`);
  return res.status === 204 ? null : ((await res.json()) as KioskCheckout);
};
const mode = (page: Page): Promise<string> => page.evaluate(() => (window as unknown as ScreenWindow).kioskScreen.mode);
const reported = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as ScreenWindow).kioskScreen.player.reported);
const order = async (orderNumber: string): Promise<Order> => {
  const r = await api<Order>(cloud.url, 'GET', `/api/v1/orders/${orderNumber}`, SANDBOX.alice);
  expect(r.status, r.message).toBe(200);
  return r.data;
};
const setAisle = async (aisleNo: number, body: Record<string, unknown>): Promise<void> => {
  const r = await api(cloud.url, 'PUT', `/api/v1/inventory/machines/${MACHINE}/aisles/${aisleNo}`, SANDBOX.alice, body);
  expect(r.status, r.message).toBe(200);
};
/** The aisles the storefront may sell now, first one first. */
const sellable = async (): Promise<number[]> => (await screenState()).items.filter((i) => i.state === 'available').map((i) => i.aisleNo);

/** The plays the agent delivered for the machine (the seed's week of plays aside). */
function ledger(): { entry: string; playedAt: number }[] {
  const db = openStoreReadonly(join(cloud.dataDir, 'vend-sandbox.sqlite'));
  try {
    return db
      .prepare(
        `select p.entry_id as entry, p.played_at as playedAt from ad_play_records p join machines m on m.id = p.machine_id
         where m.machine_no = ? and p.id not like 'ply_sbx_%' order by p.played_at, p.entry_id`,
      )
      .all(MACHINE) as { entry: string; playedAt: number }[];
  } finally {
    db.close();
  }
}

/** The QR on the kiosk's screen, decoded from a screenshot of it. */
async function scanQr(page: Page): Promise<string> {
  const png = PNG.sync.read(await page.locator('.qr-frame').screenshot());
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(code, 'the QR on the screen decodes').not.toBeNull();
  return code!.data;
}

/** Opens the storefront from the loop by touching the screen. */
async function openShop(page: Page): Promise<void> {
  if ((await mode(page)) !== 'loop') await page.goto(`${agent.control}/screen/?speed=5`);
  await page.locator('.touch-hint').waitFor(); // the screen knows its storefront is on
  await page.locator('.loop').tap();
  await page.locator('#shop-title').waitFor();
}

/** The shopper's phone pays at the address the QR holds; the page it ends on. */
async function payOnPhone(url: string, o: { axe?: boolean } = {}): Promise<Page> {
  const phone = await phoneContext.newPage();
  await phone.goto(url);
  if (o.axe) {
    await phone.screenshot({ path: shotPath('phone-checkout') });
    expect(await axeSerious(phone)).toEqual([]);
  }
  await phone
    .getByRole('link', { name: /^Pay / })
    .or(phone.getByRole('button', { name: /^Pay / }))
    .first()
    .click();
  await phone.getByRole('button', { name: /Pay now/ }).click();
  await phone.waitForURL(/\/buy\//);
  return phone;
}

afterAll(async () => {
  await browser?.close();
  await cleanup(dir);
});

describe.skipIf(!CHROMIUM || !socatAvailable())('the kiosk’s screen in a browser, against the agent, the board simulator and the cloud', () => {
  beforeAll(async () => {
    const screenDir = (await buildKioskScreen({ outDir: join(dir, 'screen') })).dir;
    cloud = await startCloud({ dataDir: join(dir, 'cloud'), env: { DISPENSE_TIMEOUT_SECONDS: '60' } });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, {
      pollInterval: 1,
      heartbeatInterval: 10,
      module: 'SH',
      features: { htmlStorefront: true },
    });
    expect(s.status, s.message).toBe(200);
    const code = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/service-code`, SANDBOX.alice, { code: SERVICE_CODE });
    expect(code.status, code.message).toBe(200);
    sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--module', 'SH', '--motor-ms', '300', '--drop-ms', '100', '--seed', '11'] });
    agent = await startAgent({
      stateDir: join(dir, 'agent'),
      cloudUrl: cloud.url,
      equipmentNo: MACHINE,
      serialPort: sim.port,
      env: {
        VEND_AGENT_SCREEN_DIR: screenDir,
        VEND_AGENT_AD_REFRESH_SECONDS: '2',
        VEND_AGENT_AD_PLAY_FLUSH_SECONDS: '0',
      },
    });
    await waitFor(
      async () => {
        const st = await screenState();
        return st.cloud.reachable && st.board.state === 'ok' && st.items.length > 0 && st.features['htmlStorefront'] === true;
      },
      60_000,
      'the agent enrolled, the board up, the goods and the storefront flag in',
    );
    browser = await launchChromium();
    const allowed = [agent.control, cloud.url];
    kioskContext = await guardedContext(browser, KIOSK_SIZE, allowed, problems);
    phoneContext = await guardedContext(browser, PHONE_SIZE, allowed, problems);
    kiosk = await kioskContext.newPage();
    await kiosk.goto(`${agent.control}/screen/?speed=5`);
  }, 120_000);

  it('plays the loop the agent serves and reports each showing once: the cloud’s ledger counts them once', { timeout: 90_000 }, async () => {
    await expect.poll(() => reported(kiosk), { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(4);
    await kiosk.screenshot({ path: shotPath('loop') });
    const shown = await reported(kiosk);
    // the agent delivers what the page reported; each showing (entry, playedAt) once, however often it was sent
    const rows = await waitFor(
      () => {
        const r = ledger();
        return r.length >= shown ? r : undefined;
      },
      30_000,
      `${shown} plays in the cloud's ledger`,
    );
    const keys = rows.map((r) => `${r.entry}@${r.playedAt}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.length).toBeGreaterThanOrEqual(shown);
    expect(problems).toEqual([]);
  });

  it(
    'a touch opens the storefront: the goods with prices and stock, unavailable lanes shown so; a price and stock change shows within one heartbeat',
    { timeout: 60_000 },
    async () => {
      await openShop(kiosk);
      const [first, second] = await sellable();
      expect(first).toBeDefined();
      await setAisle(second!, { faulted: true });
      await setAisle(first!, { sellingPrice: 4.25, currentStock: 3 });
      const item = kiosk.locator(`.item[data-aisle="${first}"]`);
      await expect.poll(() => item.textContent(), { timeout: 20_000, interval: 500 }).toMatch(/\$4\.25.*3 left/);
      await expect.poll(() => kiosk.locator(`.item[data-aisle="${second}"]`).getAttribute('aria-disabled'), { timeout: 20_000 }).toBe('true');
      expect(await kiosk.locator(`.item[data-aisle="${second}"]`).textContent()).toContain('Unavailable');
      await kiosk.screenshot({ path: shotPath('storefront') });
      expect(await axeSerious(kiosk)).toEqual([]);
      await setAisle(second!, { faulted: false });
    },
  );

  it('keyboard only: Enter leaves the loop, Tab reaches the goods, Enter chooses one, Tab and Enter cancel it', { timeout: 60_000 }, async () => {
    await kiosk.goto(`${agent.control}/screen/?speed=5`);
    await kiosk.locator('.touch-hint').waitFor(); // the screen knows its storefront is on
    await kiosk.keyboard.press('Enter');
    await kiosk.locator('#shop-title').waitFor();
    const [aisle] = await sellable();
    const focusedAisle = () => kiosk.evaluate(() => document.activeElement?.getAttribute('data-aisle') ?? null);
    for (let i = 0; i < 40 && (await focusedAisle()) !== String(aisle); i++) await kiosk.keyboard.press('Tab');
    expect(await focusedAisle()).toBe(String(aisle));
    await kiosk.keyboard.press('Enter');
    await kiosk.locator('.qr-frame').waitFor();
    await kiosk.keyboard.press('Tab');
    expect(await kiosk.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await kiosk.keyboard.press('Enter');
    await kiosk.locator('.checkout[data-step="cancelled"]').waitFor();
    expect((await currentCheckout())?.status).toBe('cancelled');
    await expect.poll(() => mode(kiosk), { timeout: 15_000 }).toBe('loop');
  });

  it(
    'pays by phone end to end: QR → the phone pays → one motor run, one order with its payment → back to the loop; a second shopper sees it busy',
    { timeout: 120_000 },
    async () => {
      await openShop(kiosk);
      const [aisle] = await sellable();
      const runsBefore = (await motorLog(sim)).length;
      await kiosk.locator(`.item[data-aisle="${aisle}"]`).click();
      await kiosk.locator('.qr-frame').waitFor();
      expect(await kiosk.locator('#checkout-title').textContent()).toMatch(/Scan to pay/);
      await kiosk.screenshot({ path: shotPath('pay-by-phone') });
      expect(await axeSerious(kiosk)).toEqual([]);
      const payUrl = await scanQr(kiosk);
      const checkout = (await currentCheckout())!;
      expect(payUrl).toBe(checkout.payUrl);
      expect(checkout.aisleNo).toBe(aisle);

      // another shopper at the same screen meanwhile: busy, nothing can be chosen
      const second = await kioskContext.newPage();
      await second.goto(`${agent.control}/screen/`);
      await expect.poll(() => mode(second), { timeout: 15_000 }).toBe('checkout'); // a reload picks the purchase up
      const busy = await fetch(`${agent.control}/v1/kiosk/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ aisleNo: aisle }),
      });
      expect(busy.status).toBe(409);
      expect((await screenState()).busy).toBe(true);
      await second.close();

      const phone = await payOnPhone(payUrl, { axe: true });
      await kiosk.locator('.checkout[data-step="take"]').waitFor({ timeout: 60_000 });
      await kiosk.screenshot({ path: shotPath('take-your-product') });
      expect(await axeSerious(phone)).toEqual([]);
      await phone.screenshot({ path: shotPath('phone-paid') });
      const done = (await currentCheckout())!;
      expect(done.orderNumber).not.toBeNull();
      const o = await order(done.orderNumber!);
      expect(o.payStatus).toBe('shipped');
      const runs = (await motorLog(sim)).slice(runsBefore);
      expect(runs.map((r) => r.aisle)).toEqual([aisle]);
      // back to the loop on its own (10 s at 5×)
      await expect.poll(() => mode(kiosk), { timeout: 15_000 }).toBe('loop');
      // paying twice (the phone's Back and Pay again) takes nothing more and drops nothing more
      await phone.goBack();
      await phone.reload();
      expect((await motorLog(sim)).length).toBe(runsBefore + 1);
      await phone.close();
      expect(problems).toEqual([]);
    },
  );

  it('a jammed lane: the screen says it could not vend and the refund is owed', { timeout: 120_000 }, async () => {
    const [aisle] = await sellable();
    const jam = await fetch(`${sim.control}/actions`, { method: 'POST', body: JSON.stringify({ do: 'jam', aisle }) });
    expect(jam.status).toBeLessThan(300);
    await openShop(kiosk);
    await kiosk.locator(`.item[data-aisle="${aisle}"]`).click();
    await kiosk.locator('.qr-frame').waitFor();
    const phone = await payOnPhone(await scanQr(kiosk));
    await kiosk.locator('.checkout[data-step="failed"]').waitFor({ timeout: 60_000 });
    expect(await kiosk.locator('.step-text').textContent()).toMatch(/refund is on its way/);
    await kiosk.screenshot({ path: shotPath('could-not-vend') });
    // owed, and soon issued through the processor by the cloud's kiosk refund loop (every 10 s, issue 34)
    const failed = await waitFor(
      async () => {
        const c = await currentCheckout();
        return c?.refund === 'owed' || c?.refund === 'issued' ? c : undefined;
      },
      30_000,
      'the cloud owing the refund',
    );
    expect(failed.status).toBe('failed');
    await expect.poll(async () => (await order(failed.orderNumber!)).payStatus, { timeout: 30_000 }).toBe('refunded');
    await expect.poll(() => phone.locator('main').textContent(), { timeout: 20_000 }).toMatch(/Refunded \$\d+\.\d\d to the card you paid with/);
    await phone.close();
    await expect.poll(() => mode(kiosk), { timeout: 15_000 }).toBe('loop');
    // the jammed lane is that lane's fault: the board says so, the other lanes still sell
    await expect.poll(async () => (await screenState()).board.fault, { timeout: 15_000 }).toMatch(/jammed/);
    expect((await screenState()).payByPhone).toBe(true);
    expect(await kiosk.locator('.ribbon').isVisible()).toBe(false);
  });

  it(
    'service mode: five taps in the corner ask for the service code; a wrong one is counted, the right one shows the cabinet’s status',
    { timeout: 60_000 },
    async () => {
      for (let i = 0; i < 5; i++) await kiosk.locator('.service-corner').click({ force: true });
      await kiosk.locator('#service-title').waitFor();
      const keypad = async (code: string) => {
        for (const d of code) await kiosk.getByRole('button', { name: d, exact: true }).click();
        await kiosk.getByRole('button', { name: 'OK', exact: true }).click();
      };
      await keypad('11111111');
      await expect.poll(() => kiosk.locator('.service-message').textContent(), { timeout: 10_000 }).toMatch(/wrong|Wrong/);
      await keypad(SERVICE_CODE);
      await kiosk.locator('dl.status').waitFor({ timeout: 10_000 });
      expect(await kiosk.locator('dl.status').textContent()).toContain(MACHINE);
      await kiosk.screenshot({ path: shotPath('service') });
      expect(await axeSerious(kiosk)).toEqual([]);
      await kiosk.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => mode(kiosk)).toBe('loop');
    },
  );

  it(
    'with the cloud stopped mid-loop the loop goes on from the agent’s cache and the screen says paying by phone is unavailable',
    { timeout: 120_000 },
    async () => {
      // every entry in the agent's media cache first (it fetches them in the background)
      await waitFor(
        async () => {
          const loop = (await (await fetch(`${agent.control}/v1/ads/loop`)).json()) as { entries: { cached: boolean }[] };
          return loop.entries.length > 0 && loop.entries.every((e) => e.cached);
        },
        60_000,
        'the loop cached by the agent',
      );
      await kiosk.goto(`${agent.control}/screen/?speed=5`);
      await expect.poll(() => reported(kiosk), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      await cloud.stop();
      const before = await reported(kiosk);
      await expect.poll(() => kiosk.locator('.ribbon').textContent(), { timeout: 40_000, interval: 1000 }).toMatch(/Offline/);
      await expect.poll(() => reported(kiosk), { timeout: 40_000, interval: 1000 }).toBeGreaterThanOrEqual(before + 3);
      await kiosk.screenshot({ path: shotPath('offline') });
      await openShop(kiosk);
      expect(await kiosk.locator('.notice').first().textContent()).toMatch(/unavailable/);
      expect(await kiosk.locator('.item[aria-disabled="true"]').count()).toBe(await kiosk.locator('.item').count());
      const problemsNow = problems.filter((p) => !p.includes('Failed to load resource'));
      expect(problemsNow).toEqual([]);
    },
  );
});
