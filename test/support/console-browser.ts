import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildConsole } from '../../scripts/build-console.ts';
import { startCloud, type CloudProc } from './cabinet-rig.ts';
import { PHONE_SIZE, guardedContext, launchChromium } from './kiosk-browser.ts';
import { ROOT } from './processes.ts';

// What every browser test of the operator console (apps/console, docs/console.md) shares: the sandbox's people, the
// two screen sizes, signing in through /signin as a person would, keyboard navigation, the page's weight.

export const ALICE = { email: 'alice@sandbox.vend.test', password: 'sandbox-alice-pass', totp: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' };
export const BOB = { email: 'bob@sandbox.vend.test', password: 'sandbox-bob-pass' };
export const DESKTOP_SIZE = { viewport: { width: 1280, height: 800 } };

/**
 * One console test file's rig: the console built into `dir`, the cloud sandbox serving it (SQLite under `dir`), Debian's
 * chromium, and a phone-sized context that records console errors and outside requests in `problems`.
 */
export async function startConsoleRig(dir: string, problems: string[]): Promise<{ cloud: CloudProc; browser: Browser; phone: BrowserContext }> {
  const built = await buildConsole({ outDir: join(dir, 'console') });
  const cloud = await startCloud({ dataDir: join(dir, 'cloud'), env: { CONSOLE_DIR: built.dir } });
  const browser = await launchChromium();
  const phone = await guardedContext(browser, PHONE_SIZE, [cloud.url], problems);
  return { cloud, browser, phone };
}

/** Where a console screenshot goes: docs/screenshots/console-<name>.png with CONSOLE_SCREENSHOTS=docs, else .tmp/screenshots/. */
export function consoleShot(name: string): string {
  const folder = process.env['CONSOLE_SCREENSHOTS'] === 'docs' ? join(ROOT, 'docs/screenshots') : join(ROOT, '.tmp/screenshots');
  mkdirSync(folder, { recursive: true });
  return join(folder, `console-${name}.png`);
}

/**
 * Signs in through /signin (reached by asking for `path` on `base`): the TOTP step for an account with one; an account
 * without one (bob) sets it up first (the enrolment page's key, then its recovery codes page). Lands on `path`.
 */
export async function signIn(page: Page, base: string, path: string, who: { email: string; password: string; totp?: string }): Promise<void> {
  await page.goto(base + path);
  expect(new URL(page.url()).pathname).toBe('/signin');
  await page.getByLabel('Email address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
  const enrolling = (await page.getByRole('heading', { level: 1 }).textContent()) === 'Set up two-step sign-in';
  const secret = enrolling ? await page.locator('input[name="secret"]').inputValue() : who.totp;
  if (!secret) throw new Error(`${who.email}: no TOTP secret to sign in with`);
  await page.getByLabel('Code from your authenticator app').fill(new TOTP({ secret }).generate());
  await page.getByRole('button', { name: enrolling ? 'Turn on and sign in' : 'Sign in', exact: true }).click();
  if (enrolling) await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(base + path);
}

/** Presses Tab until the focused element has `name` as its accessible label or text (keyboard only, as a user would). */
export async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const a = document.activeElement;
      return a ? (a.getAttribute('aria-label') ?? a.textContent ?? '').trim() : '';
    });
    if (focused === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

/** First contentful paint (ms) and the bytes the page fetched (document, script, style and API answers): on the wire (headers included, compressed) and decoded. */
export async function weigh(page: Page): Promise<{ fcpMs: number; viewMs: number; bytes: number; bodyBytes: number; requests: number }> {
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1;
    const nav = performance.getEntriesByType('navigation') as PerformanceResourceTiming[];
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const all = [...nav, ...res];
    return {
      fcpMs: Math.round(fcp),
      // the view on the page: read just after the test saw its heading (a poll late at most)
      viewMs: Math.round(performance.now()),
      bytes: all.reduce((s, e) => s + e.transferSize, 0),
      bodyBytes: all.reduce((s, e) => s + e.decodedBodySize, 0),
      requests: all.length,
    };
  });
}
