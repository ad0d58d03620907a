import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import type { ControlAdLoop, ControlAdPlay } from '@vend/protocol';
import { FEATURE_DEFAULTS } from '@vend/protocol';
import { buildKioskScreen } from '../scripts/build-kiosk-screen.ts';
import { cleanup, tempDir } from './support/cabinet-rig.ts';
import { CHROMIUM, KIOSK_SIZE, guardedContext, launchChromium } from './support/kiosk-browser.ts';
import { ROOT } from './support/processes.ts';

// The screen's attract loop in a real browser against a stand-in agent that serves a loop of our making:
// pictures and an MP4 clip (test/fixtures/loop-clip.mp4: 2 s, H.264, made with ffmpeg) in order, an entry
// whose media does not load skipped and never reported, a video shown to its end, each showing reported once
// with the time it began. (The real agent, cloud and board: kiosk-screen.test.ts.)

const dir = tempDir('kiosk-loop-');
let server: Server;
let base: string;
let browser: Browser;
const posted: ControlAdPlay[][] = [];
const problems: string[] = [];

function png(rgb: [number, number, number]): Buffer {
  const p = new PNG({ width: 108, height: 192 });
  for (let i = 0; i < p.data.length; i += 4) [p.data[i], p.data[i + 1], p.data[i + 2], p.data[i + 3]] = [...rgb, 255];
  return PNG.sync.write(p);
}

const entry = (id: string, url: string, type: string): ControlAdLoop['entries'][number] => ({
  id,
  url,
  remoteUrl: url,
  cached: true,
  head: `Sponsored · ${id}`,
  type,
  startTime: '2026-12-01 00:00:00',
  endTime: '2026-12-31 00:00:00',
  source: 'direct-sold',
  campaignId: `cmp_${id}`,
});

beforeAll(async () => {
  const screenDir = (await buildKioskScreen({ outDir: join(dir, 'screen') })).dir;
  const media: Record<string, { type: string; body: Buffer }> = {
    '/media/red.png': { type: 'image/png', body: png([200, 30, 30]) },
    '/media/green.png': { type: 'image/png', body: png([30, 160, 60]) },
    '/media/clip.mp4': { type: 'video/mp4', body: readFileSync(join(ROOT, 'test/fixtures/loop-clip.mp4')) },
  };
  const loop: ControlAdLoop = {
    machineCode: 'CAB-LOOP-01',
    slotSeconds: 5,
    entries: [
      entry('red', '/media/red.png', 'image'),
      entry('gone', '/media/gone.png', 'image'),
      entry('clip', '/media/clip.mp4', 'video'),
      entry('green', '/media/green.png', 'image'),
    ],
    fetchedAt: '2026-12-05T12:00:00.000Z',
    ageSeconds: 1,
    stale: false,
    source: 'cloud',
  };
  const screen = {
    machineCode: 'CAB-LOOP-01',
    features: { ...FEATURE_DEFAULTS },
    cloud: { reachable: true, lastContactAt: null },
    board: { state: 'ok', fault: null },
    retired: false,
    currency: 'USD',
    items: [],
    goodsFetchedAt: null,
    goodsStale: false,
    payByPhone: true,
    payByPhoneReason: null,
    busy: false,
  };
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/v1/ads/loop') return json(200, loop);
    if (path === '/v1/kiosk/screen') return json(200, screen);
    if (path === '/v1/kiosk/checkouts/current') return res.writeHead(204).end();
    if (path === '/v1/ads/plays' && req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        posted.push((JSON.parse(body) as { plays: ControlAdPlay[] }).plays);
        json(202, { accepted: 1, duplicates: 0, backlog: 0, dropped: 0 });
      });
      return;
    }
    const m = media[path];
    if (m) {
      res.writeHead(200, { 'content-type': m.type, 'content-length': m.body.length, 'accept-ranges': 'bytes' });
      return res.end(m.body);
    }
    if (path.startsWith('/screen/')) {
      const name = path === '/screen/' ? 'index.html' : path.slice(8);
      const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.css') ? 'text/css' : 'text/html';
      try {
        res.writeHead(200, { 'content-type': type });
        return res.end(readFileSync(join(screenDir, name)));
      } catch {
        // falls through to 404
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (CHROMIUM) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup(dir);
});

describe.skipIf(!CHROMIUM)('the attract loop in a browser', () => {
  let page: Page;

  it(
    'plays pictures and an MP4 clip in order, skips an entry that does not load, shows the clip to its end, reports each showing once',
    { timeout: 60_000 },
    async () => {
      const context = await guardedContext(browser, KIOSK_SIZE, [base], problems);
      page = await context.newPage();
      const shown: string[] = [];
      await page.exposeFunction('noteShown', (what: string) => shown.push(what));
      await page.addInitScript(() => {
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of Array.from(r.addedNodes))
              if (n instanceof HTMLImageElement || n instanceof HTMLVideoElement)
                (window as unknown as { noteShown: (s: string) => void }).noteShown(new URL(n.src).pathname);
        }).observe(document, { subtree: true, childList: true });
      });
      // slots of 5 s at 5×: 1 s per picture; the clip plays its own 2 s
      await page.goto(`${base}/screen/?speed=5`);
      await expect.poll(() => posted.flat().length, { timeout: 40_000, interval: 500 }).toBeGreaterThanOrEqual(7);
      const plays = posted.flat();
      // in the loop's order, the entry whose media 404s never shown nor reported
      expect(plays.slice(0, 6).map((p) => p.id)).toEqual(['red', 'clip', 'green', 'red', 'clip', 'green']);
      expect(shown.slice(0, 6)).toEqual(['/media/red.png', '/media/clip.mp4', '/media/green.png', '/media/red.png', '/media/clip.mp4', '/media/green.png']);
      // each showing once, with the campaign, and the time it began
      const keys = plays.map((p) => `${p.id}@${String(p.playedAt)}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(plays[0]).toMatchObject({ id: 'red', campaignId: 'cmp_red', source: 'direct-sold' });
      expect(Date.parse(String(plays[0]!.playedAt))).toBeGreaterThan(Date.now() - 60_000);
      // the clip ended on its own (2 s of video, reported ×5 as loop time), not at the slot cap
      const clip = plays.find((p) => p.id === 'clip')!;
      expect(clip.durationMs! / 5).toBeGreaterThan(1_500);
      expect(clip.durationMs! / 5).toBeLessThan(6_000);
      expect(await page.locator('.caption').textContent()).toMatch(/^Sponsored · /);
      expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    },
  );
});
