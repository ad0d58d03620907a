import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.ts';

/**
 * The interactive reference in a real browser (Debian's chromium, driven by playwright-core): the page
 * renders every operation, and "Try it out" on GET /api/v1/machines with the preset sandbox key
 * answers 200 — with no request leaving the service and no content-policy violation. Skips where
 * chromium is not installed; CI (.ci/run) requires it, and scripts/setup installs it.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

describe.skipIf(!CHROMIUM)('the interactive API reference in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  /** Console errors, page errors and requests to anywhere but the service. */
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestServer('sqlite');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // offline: anything not from the service is refused and reported
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(`${t.url}/`) || url.startsWith('data:')) return route.continue();
      problems.push(`request to ${url}`);
      return route.abort();
    });
    await page.goto(`${t.url}/docs`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  // Swagger UI resolves the whole document before it draws: on this machine ~20 s for ~230 operations, growing with the document
  it('renders every operation of the document', { timeout: 90_000 }, async () => {
    await page.locator('.opblock').first().waitFor({ timeout: 80_000 });
    expect(await page.locator('.opblock').count()).toBe(t.ctx.docs.list().length);
    await expect.poll(() => page.locator('.opblock-tag').count()).toBeGreaterThan(5);
  });

  it('tries GET /api/v1/machines with the preset sandbox key and shows 200', async () => {
    const op = page.locator('#operations-machines-getMachines');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 10_000 });
    expect((await status.innerText()).trim()).toBe('200');
    expect(await op.locator('.live-responses-table tbody .response-col_description').first().innerText()).toContain('SBX-ALICE-0001');
  });

  it('loads nothing from elsewhere and breaks no content policy', () => {
    expect(problems).toEqual([]);
  });
});
