/**
 * The kiosk's own screen (issue 32; docs/benchmarks.md "Kiosk screen (issue 32)"): its first paint from the
 * agent, the memory of its browser tab over an accelerated hour of the loop, and the CPU of the loop at idle.
 *
 *   npx tsx scripts/bench-kiosk.ts [loads]      (or: bash scripts/bench kiosk; default 15 cold loads each, about 4 min)
 *
 * The rig of test/kiosk-screen.test.ts (test/support/cabinet-rig.ts, test/support/kiosk-browser.ts): the cloud
 * sandbox, `vmc-sim` on a pty and `vend-agent run` serving the screen built by scripts/build-kiosk-screen.ts at
 * `/screen/`, with the agent's defaults (ads refreshed every 60 s, plays sent every 30 s); the storefront flag on.
 * Debian's chromium through playwright-core at the kiosk's portrait 1080×1920. The baseline of every figure is
 * a bare `node:http` server in its own process answering what the agent answered — every GET the page made in a
 * warm-up load (the HTML, the script, the stylesheet, the screen's state, the loop, its first picture) and
 * `/favicon.ico` (which chromium asks for itself), recorded from the agent with their headers and replayed byte
 * for byte (the loop's addresses pointed at it) — and, for memory and CPU, a tab on that server showing a plain
 * HTML page: the loop's first picture and its caption, no script.
 *
 * 1. First paint: N cold loads from each server, alternating, each in a fresh browser context (nothing
 *    cached), after one unmeasured load of each. In the page: `first-paint` and `first-contentful-paint`
 *    (a PerformanceObserver on 'paint'), and the first loop entry on the stage (the frame after the player
 *    put its picture there); from the DevTools protocol, the bytes received until then (headers included) and,
 *    per request, the wait from its sending to its answer's headers (where a server's time goes).
 * 2. Memory: the screen at `?speed=60` (15 s slots last 0.25 s: 60 s of wall time is an hour of the loop)
 *    and the static page, side by side in two contexts of one browser, sampled every 2 s for 60 s: the JS
 *    heap in use (`Performance.getMetrics` JSHeapUsedSize, with the DOM's node and listener counts) and the
 *    RSS of the tab's renderer process (/proc/<pid>/stat). The renderer is found among the browser's
 *    (`SystemInfo.getProcessInfo`) by making the page spin for a second and seeing which one spent it. The heap
 *    is also read after a forced collection before and after the hour, and the RSS after a critical
 *    memory-pressure notification (what of it is caches the renderer gives back). Slopes are least squares
 *    over the hour and over its minutes 10–60 (after the first rounds). Plotted to docs/kiosk-tab-memory.png.
 * 3. CPU at idle: one tab at a time for 60 s each, the static page first, then the screen at real speed:
 *    utime + stime (/proc/<pid>/stat) of the tab's renderer, the GPU process and the browser process (and
 *    all of chromium's), as % of one core; and the agent's over the same windows — with no screen open
 *    during the static page's window, so the difference is the screen's requests (its state every 3 s, the
 *    loop after each round, the plays), also given per request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { buildKioskScreen } from './build-kiosk-screen.ts';
import { plotRss } from './plot-rss.ts';
import { startProcess, stop } from './bench-support.ts';
import { SANDBOX, api, cleanup, startAgent, startCloud, startSim, tempDir, waitFor } from '../test/support/cabinet-rig.ts';
import type { AgentProc } from '../test/support/cabinet-rig.ts';
import { CHROMIUM, KIOSK_SIZE, launchChromium } from '../test/support/kiosk-browser.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOADS = Math.max(3, Number(process.argv[2] ?? 15));
const MACHINE = 'SBX-ALICE-0001';
const HOUR_SPEED = 60;
const HOUR_WALL_S = 60;
const SAMPLE_EVERY_S = 2;
const CPU_WINDOW_S = 60;
const SETTLE_S = 5;
const HZ = 100; // USER_HZ: /proc/<pid>/stat counts clock ticks of 10 ms
const PAGE_BYTES = 4096;
const MB = 1024 * 1024;
const CHART = path.join(ROOT, 'docs/kiosk-tab-memory.png');

// --- the page's side (plain scripts: the scripts' TypeScript has no DOM) -----------------------------

/** Installed before the page's own script: paint entries, and the frame the first loop entry is drawn in. */
const OBSERVE = `
window.__bench = { fp: null, fcp: null, entry: null };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.name === 'first-paint') window.__bench.fp = e.startTime;
    if (e.name === 'first-contentful-paint') window.__bench.fcp = e.startTime;
  }
}).observe({ type: 'paint', buffered: true });
new MutationObserver((records, observer) => {
  for (const r of records)
    for (const n of r.addedNodes)
      if (n.nodeType === 1 && n.classList.contains('media') && n.parentElement && n.parentElement.classList.contains('stage')) {
        observer.disconnect();
        requestAnimationFrame(() => (window.__bench.entry = performance.now()));
        return;
      }
}).observe(document, { childList: true, subtree: true });
`;
const SPIN = '(() => { const end = performance.now() + 1000; while (performance.now() < end); })()';
const PLAYER = '({ reported: window.kioskScreen.player.reported, skipped: window.kioskScreen.player.skipped })';

// --- processes -----------------------------------------------------------------------------------------

/** CPU ticks (utime + stime) and resident bytes of a process, from /proc/<pid>/stat; zeros once it is gone. */
function proc(pid: number): { ticks: number; rss: number } {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // after "pid (comm) ": state is field 3 of stat, so utime (14), stime (15) and rss (24) sit at 11, 12, 21
    return { ticks: Number(f[11]) + Number(f[12]), rss: Number(f[21]) * PAGE_BYTES };
  } catch {
    return { ticks: 0, rss: 0 };
  }
}

interface Chromium {
  browser: number;
  gpu: number;
  all: number[];
  renderers: number[];
}

async function chromiumProcesses(cdp: CDPSession): Promise<Chromium> {
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  const of = (type: string) => processInfo.filter((p) => p.type === type).map((p) => p.id);
  return { browser: of('browser')[0] ?? 0, gpu: of('GPU')[0] ?? 0, all: processInfo.map((p) => p.id), renderers: of('renderer') };
}

/** The renderer process of `page`: the one that spends the second the page is made to spin (tried up to three times). */
async function rendererOf(page: Page, cdp: CDPSession): Promise<number> {
  let seen = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const { renderers } = await chromiumProcesses(cdp);
    const before = renderers.map((pid) => proc(pid).ticks);
    await page.evaluate(SPIN);
    const spent = renderers.map((pid, i) => proc(pid).ticks - before[i]!);
    const ranked = [...spent].sort((a, b) => b - a);
    if (ranked[0]! >= 30 && ranked[0]! >= 3 * (ranked[1] ?? 0)) return renderers[spent.indexOf(ranked[0]!)]!;
    seen += ` [${renderers.map((pid, i) => `${pid}: ${spent[i]}`).join(', ')}]`;
  }
  throw new Error(`no one renderer spent the page's spinning (ticks per renderer:${seen})`);
}

// --- the baseline server -------------------------------------------------------------------------------

/** A bare node:http server replaying recorded answers (`__ORIGIN__` in a body becomes its own origin); POST: 202 {}. */
const REPLAY = `
const http = require('node:http');
const fs = require('node:fs');
const manifest = JSON.parse(fs.readFileSync(process.env.MANIFEST, 'utf8'));
const routes = new Map();
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') {
      res.writeHead(202, { 'content-type': 'application/json', 'content-length': 2 });
      return res.end('{}');
    }
    const r = routes.get(req.url.split('?')[0]);
    if (!r) {
      res.writeHead(404, { 'content-length': 0 });
      return res.end();
    }
    res.writeHead(r.status, r.headers);
    res.end(req.method === 'HEAD' ? undefined : r.body);
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => {
  const origin = 'http://127.0.0.1:' + server.address().port;
  for (const [p, e] of Object.entries(manifest)) {
    let body = fs.readFileSync(e.file);
    if (e.origin) body = Buffer.from(body.toString('utf8').split('__ORIGIN__').join(origin));
    routes.set(p, { status: e.status, headers: { ...e.headers, 'content-length': body.length }, body });
  }
  console.log('listening on ' + origin);
});
process.on('SIGTERM', () => process.exit(0));`;

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Records the agent's answer to every path in `paths` into `dir`, plus the static page; the manifest's file. */
async function recordAnswers(agent: AgentProc, paths: string[], dir: string): Promise<{ manifest: string; bytes: number }> {
  const manifest: Record<string, { status: number; headers: Record<string, string>; file: string; origin: boolean }> = {};
  let bytes = 0;
  let first: { url: string; head: string } | undefined;
  for (const p of paths) {
    const res = await fetch(agent.control + p);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    let body = Buffer.from(await res.arrayBuffer());
    const text = /json|html|javascript|css/.test(headers['content-type'] ?? '');
    const origin = text && body.includes(agent.control);
    if (origin) body = Buffer.from(body.toString('utf8').split(agent.control).join('__ORIGIN__'));
    if (p === '/v1/ads/loop') first = (JSON.parse(body.toString('utf8')) as { entries: { url: string; head: string }[] }).entries[0];
    const file = path.join(dir, `${Object.keys(manifest).length}.body`);
    fs.writeFileSync(file, body);
    manifest[p] = { status: res.status, headers, file, origin };
    bytes += body.length;
  }
  if (!first) throw new Error('the warm-up load fetched no loop');
  const picture = new URL(first.url.replace('__ORIGIN__', 'http://x')).pathname;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A static page</title><style>html,body{margin:0;height:100%;background:#000;color:#fff;font:40px sans-serif}img{display:block;width:100%;height:88%;object-fit:contain}p{text-align:center}</style></head><body><img src="${picture}" alt=""><p>${first.head}</p></body></html>`;
  const file = path.join(dir, 'static.html');
  fs.writeFileSync(file, html);
  manifest['/static.html'] = { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, file, origin: false };
  const manifestFile = path.join(dir, 'manifest.json');
  fs.writeFileSync(manifestFile, JSON.stringify(manifest));
  return { manifest: manifestFile, bytes };
}

/** Polls an expression in the page (evaluated through the DevTools protocol: the screen's policy forbids eval). */
async function until(page: Page, expression: string, what: string): Promise<void> {
  await waitFor(async () => (await page.evaluate(expression)) === true, 60_000, what, 50);
}

// --- 1. first paint -----------------------------------------------------------------------------------

interface Load {
  fp: number;
  fcp: number;
  entry: number;
  bytes: number;
  requests: number;
  paths: string[];
  /** Per path (media as one): the wait from the request sent to the answer's headers, ms. */
  waits: Record<string, number>;
}

const pathKey = (url: string) => new URL(url).pathname.replace(/^\/v1\/ads\/media\/.*/, '/v1/ads/media/<key>');

async function coldLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext(KIOSK_SIZE);
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: OBSERVE });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      requests++;
    });
    const waits: Record<string, number> = {};
    cdp.on('Network.responseReceived', (e) => {
      const t = e.response.timing;
      if (t) waits[pathKey(e.response.url)] ??= t.receiveHeadersStart - t.sendEnd;
    });
    const paths: string[] = [];
    page.on('request', (r) => r.method() === 'GET' && paths.push(new URL(r.url()).pathname));
    await page.goto(url);
    await until(page, 'window.__bench.entry !== null && window.__bench.fcp !== null', 'the first loop entry on the stage');
    const got = (await page.evaluate('window.__bench')) as { fp: number; fcp: number; entry: number };
    return { ...got, bytes, requests, paths, waits };
  } finally {
    await context.close();
  }
}

// --- 2. memory ----------------------------------------------------------------------------------------

interface Tab {
  name: string;
  page: Page;
  context: BrowserContext;
  cdp: CDPSession;
  renderer: number;
}

async function openTab(browser: Browser, browserCdp: CDPSession, name: string, url: string, ready: string): Promise<Tab> {
  const context = await browser.newContext(KIOSK_SIZE);
  const page = await context.newPage();
  await page.goto(url);
  await until(page, ready, `${name} drawn`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { name, page, context, cdp, renderer: await rendererOf(page, browserCdp) };
}

interface MemorySample {
  t: number;
  rss: number;
  heap: number;
  nodes: number;
  listeners: number;
}

async function metrics(tab: Tab): Promise<Record<string, number>> {
  const { metrics: m } = (await tab.cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return Object.fromEntries(m.map((x) => [x.name, x.value]));
}

/** The JS heap in use (MB) and the DOM's nodes once the page's garbage is collected. */
async function afterGc(tab: Tab): Promise<{ heap: number; nodes: number }> {
  await tab.cdp.send('HeapProfiler.collectGarbage');
  const m = await metrics(tab);
  return { heap: m['JSHeapUsedSize']! / MB, nodes: m['Nodes']! };
}

/** Least squares: MB per loop hour (the samples' t in wall seconds, HOUR_WALL_S of them an hour). */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const sxy = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const sxx = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return (sxy / sxx) * HOUR_WALL_S;
}

// --- 3. CPU ---------------------------------------------------------------------------------------------

interface CpuWindow {
  renderer: number;
  gpu: number;
  browser: number;
  chromium: number;
  agent: number;
  /** Requests the page made in the window. */
  requests: number;
}

async function cpuWindow(tab: Tab, browserCdp: CDPSession, agentPid: number): Promise<CpuWindow> {
  const p = await chromiumProcesses(browserCdp);
  const groups = { renderer: [tab.renderer], gpu: [p.gpu], browser: [p.browser], chromium: p.all, agent: [agentPid] };
  const ticks = () => Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, pids.reduce((s, pid) => s + proc(pid).ticks, 0)]));
  let requests = 0;
  const count = () => requests++;
  tab.page.on('request', count);
  const t0 = performance.now();
  const start = ticks();
  await sleep(CPU_WINDOW_S * 1000);
  const end = ticks();
  const secs = (performance.now() - t0) / 1000;
  tab.page.off('request', count);
  const pct = Object.fromEntries(Object.keys(groups).map((k) => [k, ((end[k]! - start[k]!) / HZ / secs) * 100]));
  return { ...(pct as Omit<CpuWindow, 'requests'>), requests };
}

// --- the report -----------------------------------------------------------------------------------------

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p90 = (xs: number[]) => sorted(xs)[Math.ceil(0.9 * xs.length) - 1]!;
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  if (!CHROMIUM) throw new Error('chromium is not installed (bash scripts/setup --all)');
  const dir = tempDir('vend-bench-kiosk-');
  const began = Date.now();
  const loads: string[] = [loadavg()];
  let browser: Browser | undefined;
  let replay: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    const screenDir = (await buildKioskScreen({ outDir: path.join(dir, 'screen') })).dir;
    const cloud = await startCloud({ dataDir: path.join(dir, 'cloud') });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, { features: { htmlStorefront: true } });
    if (s.status !== 200) throw new Error(`cabinet settings: ${s.status} ${s.message}`);
    const sim = await startSim({ link: path.join(dir, 'ttyVMC0'), args: ['--module', 'SH'] });
    const agent = await startAgent({
      stateDir: path.join(dir, 'agent'),
      cloudUrl: cloud.url,
      equipmentNo: MACHINE,
      serialPort: sim.port,
      env: { VEND_AGENT_SCREEN_DIR: screenDir },
    });
    const loop = await waitFor(
      async () => {
        const l = (await (await fetch(`${agent.control}/v1/ads/loop`)).json()) as { entries: { cached: boolean; type: string }[] };
        return l.entries.length > 0 && l.entries.every((e) => e.cached) ? l : undefined;
      },
      90_000,
      'the agent enrolled and the loop in its media cache',
    );
    browser = await launchChromium();
    const browserCdp = await browser.newBrowserCDPSession();
    const screenUrl = `${agent.control}/screen/`;

    // the baseline: what the page fetched from the agent in a warm-up load, replayed by a bare server
    const warm = await coldLoad(browser, screenUrl);
    const recorded = await recordAnswers(agent, [...new Set([...warm.paths, '/favicon.ico'])], fs.mkdtempSync(path.join(dir, 'replay-')));
    replay = await startProcess(process.execPath, ['-e', REPLAY], { MANIFEST: recorded.manifest }, /listening on (http:\/\/\S+)/);
    const bareUrl = `${replay.url}/screen/`;
    await coldLoad(browser, bareUrl);

    // 1. first paint
    const cold = { agent: [] as Load[], bare: [] as Load[] };
    for (let i = 0; i < LOADS; i++) {
      cold.agent.push(await coldLoad(browser, screenUrl));
      cold.bare.push(await coldLoad(browser, bareUrl));
    }
    loads.push(loadavg());

    // 3. CPU at idle (before the hour, whose plays the agent still sends for a while after it)
    const staticTab = await openTab(browser, browserCdp, 'static page', `${replay.url}/static.html`, 'document.images[0] && document.images[0].complete');
    await sleep(SETTLE_S * 1000);
    const cpuStatic = await cpuWindow(staticTab, browserCdp, agent.pid);
    await staticTab.context.close();
    loads.push(loadavg());
    const idleTab = await openTab(browser, browserCdp, 'screen', screenUrl, "document.querySelector('.stage .media') !== null");
    await sleep(SETTLE_S * 1000);
    const playedBefore = (await idleTab.page.evaluate(PLAYER)) as { reported: number; skipped: number };
    const cpuScreen = await cpuWindow(idleTab, browserCdp, agent.pid);
    const playedIdle = (await idleTab.page.evaluate(PLAYER)) as { reported: number; skipped: number };
    await idleTab.context.close();
    loads.push(loadavg());

    // 2. memory over an hour of the loop, the static page beside it
    const tabs = [
      await openTab(browser, browserCdp, 'screen, speed 60', `${screenUrl}?speed=${HOUR_SPEED}`, "document.querySelector('.stage .media') !== null"),
      await openTab(browser, browserCdp, 'static page', `${replay.url}/static.html`, 'document.images[0] && document.images[0].complete'),
    ];
    if (tabs[0]!.renderer === tabs[1]!.renderer) throw new Error('both tabs in one renderer process');
    const gcStart: { heap: number; nodes: number }[] = [];
    for (const t of tabs) gcStart.push(await afterGc(t));
    const samples: MemorySample[][] = tabs.map(() => []);
    const t0 = performance.now();
    for (let i = 0; i <= HOUR_WALL_S / SAMPLE_EVERY_S; i++) {
      await sleep(Math.max(0, t0 + i * SAMPLE_EVERY_S * 1000 - performance.now()));
      const t = (performance.now() - t0) / 1000;
      for (const [k, tab] of tabs.entries()) {
        const m = await metrics(tab);
        samples[k]!.push({ t, rss: proc(tab.renderer).rss / MB, heap: m['JSHeapUsedSize']! / MB, nodes: m['Nodes']!, listeners: m['JSEventListeners']! });
      }
    }
    const hour = (await tabs[0]!.page.evaluate(PLAYER)) as { reported: number; skipped: number };
    const gcEnd: { heap: number; nodes: number }[] = [];
    for (const t of tabs) gcEnd.push(await afterGc(t));
    // what of the renderer's memory is caches it gives back: a critical memory-pressure notification to every process
    await tabs[0]!.cdp.send('Memory.simulatePressureNotification', { level: 'critical' });
    await sleep(3000);
    const pressed = tabs.map((t) => proc(t.renderer).rss / MB);
    for (const t of tabs) await t.context.close();
    loads.push(loadavg());

    // the chart: x in loop minutes (one wall second at speed 60), MB
    const x = (t: number) => (t * HOUR_SPEED) / 60;
    await plotRss(
      CHART,
      `The kiosk's tab over an hour of the loop (speed ${HOUR_SPEED}) beside a static page`,
      [
        { label: 'screen: renderer RSS', points: samples[0]!.map((s) => [x(s.t), s.rss] as [number, number]) },
        { label: 'static page: renderer RSS', points: samples[1]!.map((s) => [x(s.t), s.rss] as [number, number]) },
        { label: 'screen: JS heap used', points: samples[0]!.map((s) => [x(s.t), s.heap] as [number, number]) },
        { label: 'static page: JS heap used', points: samples[1]!.map((s) => [x(s.t), s.heap] as [number, number]) },
      ],
      'MB (x: minutes of the loop)',
    );

    // --- print
    console.log(
      `host ${os.hostname()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, chromium ${browser.version()}, ${new Date().toISOString()}`,
    );
    console.log(`load average (1 5 15 min) at the start, after the loads, after each CPU window, after the hour: ${loads.join(' | ')}`);
    console.log(
      `the loop: ${loop.entries.length} entries (${[...new Set(loop.entries.map((e) => e.type))].join(', ')}); the warm-up load fetched ${warm.paths.length} paths, ${(recorded.bytes / 1024).toFixed(1)} KiB of bodies replayed by the baseline`,
    );
    console.log('');
    console.log(`### First paint, ${LOADS} cold loads each, 1080×1920 (ms from the navigation's start; median / p90)`);
    console.log('');
    console.log('| served by | first paint | first contentful paint | first loop entry on the stage | KB received | requests |');
    console.log('|---|---:|---:|---:|---:|---:|');
    const row = (name: string, l: Load[]) => {
      const c = (k: 'fp' | 'fcp' | 'entry') => `${median(l.map((x) => x[k])).toFixed(0)} / ${p90(l.map((x) => x[k])).toFixed(0)}`;
      console.log(`| ${name} | ${c('fp')} | ${c('fcp')} | ${c('entry')} | ${f1(median(l.map((x) => x.bytes)) / 1024)} | ${median(l.map((x) => x.requests))} |`);
    };
    row('the agent', cold.agent);
    row('bare node:http, the same answers', cold.bare);
    const ratio = (k: 'fp' | 'fcp' | 'entry' | 'bytes') => (median(cold.agent.map((x) => x[k])) / median(cold.bare.map((x) => x[k]))).toFixed(2);
    console.log(`| ratio agent / bare (medians) | ${ratio('fp')} | ${ratio('fcp')} | ${ratio('entry')} | ${ratio('bytes')} | |`);
    console.log('');
    console.log('| request | agent: wait from sent to the answer’s headers, median ms | bare node:http | ratio |');
    console.log('|---|---:|---:|---:|');
    for (const key of Object.keys(cold.agent[0]!.waits)) {
      const w = (l: Load[]) => median(l.map((x) => x.waits[key]).filter((v): v is number => v !== undefined));
      console.log(`| ${key} | ${f1(w(cold.agent))} | ${f1(w(cold.bare))} | ${(w(cold.agent) / w(cold.bare)).toFixed(1)} |`);
    }
    console.log('');
    console.log(
      `### Memory of the tab, ${HOUR_WALL_S} s at speed ${HOUR_SPEED} (an hour of the loop), every ${SAMPLE_EVERY_S} s (MB; slopes in MB per loop hour)`,
    );
    console.log('');
    console.log('| tab | renderer RSS start / end / max | slope, the whole hour | slope after minute 10 | RSS after a critical memory-pressure notification |');
    console.log('|---|---:|---:|---:|---:|');
    const sem = (ss: MemorySample[], key: 'rss' | 'heap' | 'nodes', f = f1) =>
      `${f(ss[0]![key])} / ${f(ss.at(-1)![key])} / ${f(Math.max(...ss.map((x) => x[key])))}`;
    const sl = (ss: MemorySample[], key: 'rss' | 'heap') => {
      const v = slope(ss.map((x) => [x.t, x[key]]));
      return `${v >= 0 ? '+' : ''}${f1(v)}`;
    };
    const later = (ss: MemorySample[]) => ss.filter((x) => (x.t * HOUR_SPEED) / 60 >= 10);
    for (const [k, tab] of tabs.entries())
      console.log(`| ${tab.name} | ${sem(samples[k]!, 'rss')} | ${sl(samples[k]!, 'rss')} | ${sl(later(samples[k]!), 'rss')} | ${f1(pressed[k]!)} |`);
    console.log('');
    console.log(
      '| tab | JS heap used start / end / max | slope | JS heap after a forced GC, before → after the hour | DOM nodes start / end / max | DOM nodes after a forced GC, before → after | listeners start → end |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [k, tab] of tabs.entries()) {
      const ss = samples[k]!;
      console.log(
        `| ${tab.name} | ${sem(ss, 'heap')} | ${sl(ss, 'heap')} | ${f1(gcStart[k]!.heap)} → ${f1(gcEnd[k]!.heap)} | ${sem(ss, 'nodes', String)} | ${gcStart[k]!.nodes} → ${gcEnd[k]!.nodes} | ${ss[0]!.listeners} → ${ss.at(-1)!.listeners} |`,
      );
    }
    console.log('');
    console.log(`the hour: ${hour.reported} showings reported to the agent, ${hour.skipped} skipped; chart ${path.relative(ROOT, CHART)}`);
    console.log('');
    console.log(`### CPU at idle, ${CPU_WINDOW_S} s windows, % of one core`);
    console.log('');
    console.log('| tab | renderer | GPU process | browser process | renderer + GPU + browser | all of chromium | the agent |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const f2 = (n: number) => n.toFixed(2);
    for (const [name, w] of [
      ['static page (no screen on the agent)', cpuStatic],
      ['the screen, real speed', cpuScreen],
    ] as const)
      console.log(
        `| ${name} | ${f2(w.renderer)} | ${f2(w.gpu)} | ${f2(w.browser)} | ${f2(w.renderer + w.gpu + w.browser)} | ${f2(w.chromium)} | ${f2(w.agent)} |`,
      );
    const three = (w: CpuWindow) => w.renderer + w.gpu + w.browser;
    const ratioOf = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
    const extraMs = ((cpuScreen.agent - cpuStatic.agent) / 100) * CPU_WINDOW_S * 1000;
    console.log('');
    console.log(
      `ratios screen / static page: renderer + GPU + browser ${ratioOf(three(cpuScreen), three(cpuStatic))}, agent ${ratioOf(cpuScreen.agent, cpuStatic.agent)}; ` +
        `the agent's CPU with the screen open: ${extraMs.toFixed(0)} ms more in ${CPU_WINDOW_S} s, for the ${cpuScreen.requests} requests the screen made ` +
        `(${cpuScreen.requests > 0 ? (extraMs / cpuScreen.requests).toFixed(1) : '—'} ms each); ${playedIdle.reported - playedBefore.reported} showings reported in the window`,
    );
    console.log(`took ${((Date.now() - began) / 1000).toFixed(0)} s`);
  } finally {
    await browser?.close();
    if (replay) await stop(replay.child);
    await cleanup(dir);
  }
}

await main();
