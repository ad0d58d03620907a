import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, startTestServer, type TestServer } from '../../testing/harness.ts';
import { adLoop, aliceMachine, savePlays } from '../campaigns/campaigns.test-support.ts';

/**
 * An outside SSP on 127.0.0.1 speaking the Vistar-style wire (ssp/vistar-wire.ts): get_ad leases one ad
 * per display area; each proof-of-play URL answers what the test queued (default 200), and counts calls.
 */
async function stubSsp() {
  const pops = new Map<string, number>();
  const answers: number[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/get_ad/json') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { display_area: { id: string }[] };
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const advertisement = body.display_area.map((a) => {
          const lease = `stub-${++n}`;
          return {
            lease_id: lease,
            display_area_id: a.id,
            creative_id: 'c1',
            advertiser: 'Stub Brand',
            asset_url: `${base}/creative.png`,
            mime_type: 'image/png',
            width: 1080,
            height: 1920,
            length_in_seconds: 15,
            length_in_milliseconds: 15000,
            proof_of_play_url: `${base}/pop/${lease}`,
            lease_expiry: Math.floor(Date.parse('2030-01-01T00:00:00Z') / 1000),
            net_cpm: 9.5,
          };
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ advertisement }));
        return;
      }
      const pop = /^\/pop\/(.+)$/.exec(url.pathname);
      if (pop) {
        pops.set(pop[1]!, (pops.get(pop[1]!) ?? 0) + 1);
        const status = answers.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pops,
    /** The statuses the next proof-of-play calls answer, in order. */
    answer: (...statuses: number[]) => answers.push(...statuses),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(DIALECTS)('programmatic proof of play through an outside SSP on %s', (dialect) => {
  let t: TestServer;
  let ssp: Awaited<ReturnType<typeof stubSsp>>;
  beforeAll(async () => {
    ssp = await stubSsp();
    t = await startTestServer(dialect, { env: { SSP_URL: ssp.url, SSP_API_KEY: 'k', SSP_NETWORK_ID: 'n' } });
  });
  afterAll(async () => {
    await t.close();
    await ssp.close();
  });

  it('a PoP that fails for now is retried by the loop until it goes out, then never again', async () => {
    const m = await aliceMachine(t);
    const fill = (await adLoop(t, m)).find((e) => e.source === 'programmatic')!;
    expect(fill.url).toBe(`${ssp.url}/creative.png`);
    const lease = fill.id.slice(4);
    ssp.answer(503);
    await savePlays(t, m, [{ id: fill.id, playedAt: t.clock.now() }]);
    expect(ssp.pops.get(lease)).toBe(1);
    // Not yet due: the retry waits 30 s after the claim.
    expect(await t.services.adDelivery.retryPops()).toBe(0);
    (t.clock as ManualClock).advance(31_000);
    expect(await t.services.adDelivery.retryPops()).toBe(1);
    expect(ssp.pops.get(lease)).toBe(2);
    expect(await t.services.adDelivery.retryPops()).toBe(0);
    const row = await t.ctx.database.db.selectFrom('ad_fills').selectAll().where('lease_id', '=', lease).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ pop_attempts: 2, pop_error: null, provider: 'vistar', net_cpm_millis: 9500 });
    expect(row.pop_fired_at).not.toBeNull();
  });

  it('a PoP the SSP refuses for good (a 4xx) is not retried', async () => {
    const m = await aliceMachine(t);
    const fill = (await adLoop(t, m)).find((e) => e.source === 'programmatic')!;
    const lease = fill.id.slice(4);
    ssp.answer(410);
    await savePlays(t, m, [{ id: fill.id, playedAt: t.clock.now() }]);
    (t.clock as ManualClock).advance(31_000);
    await t.services.adDelivery.retryPops();
    expect(ssp.pops.get(lease)).toBe(1);
    const row = await t.ctx.database.db.selectFrom('ad_fills').select(['pop_fired_at', 'pop_error']).where('lease_id', '=', lease).executeTakeFirstOrThrow();
    expect(row.pop_fired_at).toBeNull();
    expect(row.pop_error).toBeTruthy();
  });
});
