import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { ROOT } from './processes.ts';

/** Debian's chromium (scripts/setup installs it; CI requires it). */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** The kiosk's portrait screen, a touch screen. */
export const KIOSK_SIZE = { viewport: { width: 1080, height: 1920 }, hasTouch: true };
/** The shopper's phone. */
export const PHONE_SIZE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
}

/**
 * A browser context that may talk only to `allowed` origins (the agent, the cloud): any other request is
 * refused and listed in `problems`, with console errors and page errors (a content-policy violation is one).
 */
export async function guardedContext(browser: Browser, size: object, allowed: string[], problems: string[]): Promise<BrowserContext> {
  const context = await browser.newContext(size);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || allowed.some((o) => url.startsWith(`${o}/`))) return route.continue();
    problems.push(`request to ${url}`);
    return route.abort();
  });
  context.on('page', (page) => watch(page, problems));
  return context;
}

function watch(page: Page, problems: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
}

/** axe-core's serious and critical violations in the page, one line each. */
export async function axeSerious(page: Page): Promise<string[]> {
  const source = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
  // evaluated through the DevTools protocol, which the page's content policy does not govern
  await page.evaluate(source);
  const results = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] })`)) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} ×${v.nodes.length} (${v.help}): ${v.nodes[0]?.target.join(' ')}`);
}

/** Where the journey's screenshots go: docs/screenshots/ with KIOSK_SCREENSHOTS=docs (to refresh docs/kiosk-screen.md's), else .tmp/screenshots/. */
export function shotPath(name: string): string {
  const dir = process.env['KIOSK_SCREENSHOTS'] === 'docs' ? join(ROOT, 'docs/screenshots') : join(ROOT, '.tmp/screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `kiosk-${name}.png`);
}
