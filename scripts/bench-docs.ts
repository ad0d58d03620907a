/**
 * The interactive API reference's first paint and weight (docs/benchmarks.md "API reference page (issue 30)"):
 *
 *   npx tsx scripts/bench-docs.ts [runs]      (or: bash scripts/bench docs; default 3 runs, about 4 min on a loaded machine)
 *
 * The cloud from its sources (sandbox, SQLite, its own process); Debian's chromium through playwright-core,
 * 1280×800, each load in a fresh browser context (nothing cached: a first visit). Three set-ups of the same
 * page, alternating, their start-up script (`/docs/init.js`) swapped in the browser:
 *  - before: the script as it was before issue 30 (Swagger UI's defaults: every tag open and each operation's
 *    summary drawn; swagger-client's resolver on the whole document)
 *  - after: the page as served
 *  - floor: the baseline: a script that only downloads and parses `/openapi.json` — what the page costs before
 *    Swagger UI draws anything (HTML, stylesheet, the 1.5 MB bundle run, the document), whatever its options
 * Measured from the navigation's start to the moment playwright sees, between two frames: the list drawn
 * (before: the first operation's summary; after: the tag headers, one click from every operation; floor: the
 * document parsed), and the operation that `#/machines/getMachines` names drawn open; then the same operation
 * opened by a click once the page is drawn (click to its body), and the bytes the browser received (as sent:
 * compressed). Then it saves the served page's first screen at a desktop's and a phone's size into docs/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { startProcess, stop } from './bench-support.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
const runs = Math.max(1, Number(process.argv[2] ?? 3));
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const TAG = 'machines';
const OP = `#operations-${TAG}-getMachines`;

/** `/docs/init.js` before issue 30 (commit ae1f1af), the sandbox key as it preset it. */
const BEFORE = `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      window.ui.preauthorizeApiKey('apiKey', 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2');
    },
  });
});
`;

/** The baseline: the document downloaded and parsed, nothing drawn. */
const FLOOR = `'use strict';
fetch('/openapi.json').then(function (r) { return r.json(); }).then(function (doc) {
  var p = document.createElement('p');
  p.id = 'parsed';
  p.textContent = Object.keys(doc.paths).length + ' paths';
  document.body.appendChild(p);
});
`;

interface SetUp {
  name: string;
  /** the replacement start-up script; none: as served */
  script: string | null;
  /** what shows that the list is drawn */
  drawn: string;
  /** whether it draws operations at all */
  operations: boolean;
}

const SETUPS: SetUp[] = [
  { name: 'before (every tag open)', script: BEFORE, drawn: '.opblock', operations: true },
  { name: 'after (as served)', script: null, drawn: '.opblock-tag', operations: true },
  { name: 'floor: document parsed, nothing drawn', script: FLOOR, drawn: '#parsed', operations: false },
];

async function load(
  browser: Browser,
  base: string,
  setup: SetUp,
  hash: string,
  waitFor: string,
): Promise<{ page: Page; close(): Promise<void>; ms: number; bytes: () => number }> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  if (setup.script !== null) {
    const body = setup.script;
    await page.route('**/docs/init.js', (r) => r.fulfill({ contentType: 'text/javascript', body }));
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  const t0 = performance.now();
  await page.goto(`${base}/docs${hash}`);
  // playwright looks between frames: a page that drew its list and then froze (resolving the document)
  // is seen when it thaws, as a reader sees it
  await page.locator(waitFor).first().waitFor({ timeout: 120_000 });
  const ms = performance.now() - t0;
  return { page, ms, bytes: () => bytes, close: () => context.close() };
}

interface Sample {
  drawn: number;
  linked: number | null;
  clicked: number | null;
  bytes: number;
}

async function sample(browser: Browser, base: string, setup: SetUp): Promise<Sample> {
  const plain = await load(browser, base, setup, '', setup.drawn);
  let clicked: number | null = null;
  if (setup.operations) {
    if (!(await plain.page.locator(OP).isVisible())) await plain.page.locator(`h3[data-tag="${TAG}"]`).click();
    const summary = plain.page.locator(`${OP} .opblock-summary-control`);
    await summary.waitFor();
    const t0 = performance.now();
    await summary.click();
    await plain.page.locator(`${OP} .opblock-body`).waitFor({ timeout: 120_000 });
    clicked = performance.now() - t0;
  }
  await plain.page.waitForLoadState('networkidle');
  const bytes = plain.bytes();
  await plain.close();
  let linked: number | null = null;
  if (setup.operations) {
    const deep = await load(browser, base, setup, `#/${TAG}/getMachines`, `${OP} .opblock-body`);
    linked = deep.ms;
    await deep.close();
  }
  return { drawn: plain.ms, linked, clicked, bytes };
}

async function screenshots(browser: Browser, base: string): Promise<string[]> {
  const dir = path.join(ROOT, 'docs/screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const saved: string[] = [];
  for (const [name, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
    await page.locator('.opblock-tag').first().waitFor();
    const file = path.join(dir, `docs-reference-${name}.png`);
    await page.screenshot({ path: file, animations: 'disabled' });
    saved.push(path.relative(ROOT, file));
    await context.close();
  }
  return saved;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (xs: (number | null)[]) => (xs[0] === null ? '—' : median(xs as number[]).toFixed(0));

async function main(): Promise<void> {
  if (!CHROMIUM) throw new Error('chromium is not installed (bash scripts/setup --all)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-docs-'));
  const cloud = await startProcess(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [path.join(ROOT, 'apps/cloud/src/main.ts')],
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', POD_NAME: 'bench', RATE_LIMIT_PER_HOUR: '100000' },
    /listening on (http:\/\/\S+)/,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const doc = (await (await fetch(`${cloud.url}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const results = new Map<string, Sample[]>(SETUPS.map((s) => [s.name, []]));
    // one unmeasured pass: the server's first answers (the document built, the bundle read) are not timed
    for (const s of SETUPS) await sample(browser, cloud.url, s);
    for (let i = 0; i < runs; i++) for (const s of SETUPS) results.get(s.name)!.push(await sample(browser, cloud.url, s));
    const shots = await screenshots(browser, cloud.url);

    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `host ${os.hostname()}, ${os.cpus().length} cores, node ${process.version}, chromium ${browser.version()}, ${new Date().toISOString()}, load average ${load}`,
    );
    console.log(`the document: ${operations} operations; ${runs} runs each, medians; 1280×800, nothing cached`);
    console.log('');
    console.log('| set-up | list drawn ms | deep-linked operation open ms | operation opened by a click ms | KB received |');
    console.log('|---|---:|---:|---:|---:|');
    for (const s of SETUPS) {
      const r = results.get(s.name)!;
      const kb = median(r.map((x) => x.bytes)) / 1024;
      console.log(`| ${s.name} | ${ms(r.map((x) => x.drawn))} | ${ms(r.map((x) => x.linked))} | ${ms(r.map((x) => x.clicked))} | ${kb.toFixed(0)} |`);
    }
    const [before, after, floor] = SETUPS.map((s) => results.get(s.name)!) as [Sample[], Sample[], Sample[]];
    const m = (xs: Sample[], k: 'drawn' | 'linked' | 'clicked') => median(xs.map((x) => x[k] as number));
    console.log('');
    console.log(
      `ratios: list drawn after / before ${(m(after, 'drawn') / m(before, 'drawn')).toFixed(2)}, after / floor ${(m(after, 'drawn') / m(floor, 'drawn')).toFixed(2)}; ` +
        `deep link after / before ${(m(after, 'linked') / m(before, 'linked')).toFixed(2)}, after / floor ${(m(after, 'linked') / m(floor, 'drawn')).toFixed(2)}; ` +
        `opened by a click after / before ${(m(after, 'clicked') / m(before, 'clicked')).toFixed(3)}`,
    );
    console.log(`screenshots: ${shots.join(', ')}`);
  } finally {
    await browser.close();
    await stop(cloud.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
