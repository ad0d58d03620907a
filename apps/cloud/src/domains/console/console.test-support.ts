import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManualClock, type Clock } from '@vend/protocol';
import { totpAt } from '../auth/auth.testkit.ts';
import type { PageClient } from '../marketplace-pages/pages.test-support.ts';
import { formFields } from '../marketplace-pages/pages.test-support.ts';

/** A stand-in console build (until the real one is built): a tiny index.html and its script and stylesheet. */
export function consoleBuild(): { dir: string; script: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-console-'));
  const script = `console.log('console ${path.basename(dir)}');\n`;
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Console</title><link rel="stylesheet" href="/console/assets/console.css"></head>' +
      '<body><main id="app"></main><script type="module" src="/console/assets/console.js"></script></body></html>\n',
  );
  fs.writeFileSync(path.join(dir, 'console.js'), script);
  fs.writeFileSync(path.join(dir, 'console.css'), 'main{margin:0}\n');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'not an asset\n');
  return { dir, script, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Signs an operator in through `/signin` (password, then the TOTP code — or, without an authenticator yet,
 * its set-up with the key the page shows). `totpSecret`: the operator's enrolled key, when there is one.
 * Answers the last redirect or page of the flow; the client then holds the session cookie.
 */
export async function signInAt(c: PageClient, clock: Clock, who: { email: string; password: string; totpSecret?: string }, next?: string) {
  await c.get('/signin');
  const a = await c.post('/signin', { email: who.email, password: who.password, ...(next === undefined ? {} : { next }) });
  if (clock instanceof ManualClock) clock.advance(30_000); // each TOTP step is accepted once
  if (who.totpSecret) {
    if (a.status !== 303) throw new Error(`password step answered ${a.status}`);
    await c.get(a.location!);
    return c.post('/signin/code', { code: totpAt(who.totpSecret, clock.now()), next: formFields(c.last!.text, '/signin/code')['next']! });
  }
  if (a.status !== 200) throw new Error(`password step answered ${a.status}`);
  const fields = formFields(a.text, '/signin/enrol');
  return c.post('/signin/enrol', { ...fields, code: totpAt(fields['secret']!, clock.now()) });
}

/** The CSRF token the console page hands its script (its `<meta name="csrf-token">`). */
export function metaToken(page: string): string {
  const m = /<meta name="csrf-token" content="([^"]+)">/.exec(page);
  if (!m) throw new Error('no csrf-token meta on the page');
  return m[1]!;
}
