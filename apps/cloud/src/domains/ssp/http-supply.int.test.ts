import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSupply } from './http-supply.ts';
import type { SupplyLogger, SupplyRequest } from './supply.ts';

/**
 * HttpSupply against stub SSPs on a real socket: whatever the SSP does — hang before answering, hang
 * mid-body, fail, answer junk — `fill` answers [] (and logs why), never throws, never waits past its
 * timeout. `firePop` takes 2xx and 409 as done and says whether a failure is worth retrying.
 * No store is involved: the HTTP client alone (the mock SSP's own leg is in mock-ssp.int.test.ts).
 */

const NOW = Date.parse('2026-11-20T12:00:00Z');
const REQ: SupplyRequest = { machineNo: 'SBX-ALICE-0001', maxFills: 3, slotSeconds: 15, screen: null, now: NOW };

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** One stub SSP; each path is a behaviour. Records the requests it got. */
const routes: Record<string, Handler> = {
  '/hang/get_ad/json': () => {
    // never answers
  },
  '/slow-body/get_ad/json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"advertisement": [');
    // ...and never finishes
  },
  '/fail/get_ad/json': (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
  },
  '/junk/get_ad/json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"advertisement": "lots"}');
  },
  '/not-json/get_ad/json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
  },
  '/huge/get_ad/json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"advertisement": [], "pad": "${'x'.repeat(300 * 1024)}"}`);
  },
  '/redirect/get_ad/json': (_req, res) => {
    res.writeHead(302, { location: '/ok/get_ad/json' }).end();
  },
  '/ok/get_ad/json': (_req, res) => {
    const ad = (id: string) => ({
      id,
      asset_url: `/media/${id}.mp4`,
      mime_type: 'video/mp4',
      proof_of_play_url: `/pop/${id}`,
      lease_expiry: Math.floor(NOW / 1000) + 600,
      net_cpm: 9.5,
      advertiser: 'Acme',
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ advertisement: [ad('v1'), ad('v2'), ad('v3'), ad('v4')] }));
  },
  '/pop/ok': (_req, res) => {
    res.writeHead(204).end();
  },
  '/pop/again': (_req, res) => {
    res.writeHead(409, { 'content-type': 'application/json' }).end('{"code":409}');
  },
  '/pop/gone': (_req, res) => {
    res.writeHead(410).end();
  },
  '/pop/busy': (_req, res) => {
    res.writeHead(429).end();
  },
  '/pop/fail': (_req, res) => {
    res.writeHead(503).end();
  },
  '/pop/hang': () => {
    // never answers
  },
};

const seen: { method: string; url: string; body: string }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const handler = routes[path];
      if (handler) handler(req, res, body);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

class Logs implements SupplyLogger {
  readonly lines: { obj: Record<string, unknown>; msg: string }[] = [];
  warn(obj: Record<string, unknown>, msg: string): void {
    this.lines.push({ obj, msg });
  }
}

const supplyAt = (path: string, logs: SupplyLogger = new Logs(), timeoutMs = 200) =>
  new HttpSupply({ url: `${base}${path}`, apiKey: 'key-1', networkId: 'net-1', timeoutMs }, logs);

describe('HttpSupply.fill', () => {
  it('POSTs the Vistar-style request to {url}/get_ad/json and reads the fills, resolving relative URLs', async () => {
    const supply = supplyAt('/ok/');
    const fills = await supply.fill(REQ);
    const sent = seen.filter((s) => s.url === '/ok/get_ad/json').at(-1)!;
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body)).toMatchObject({
      network_id: 'net-1',
      api_key: 'key-1',
      device_id: 'SBX-ALICE-0001',
      display_area: [{ id: 'slot-1' }, { id: 'slot-2' }, { id: 'slot-3' }],
    });
    expect(fills.map((f) => f.leaseId)).toEqual(['v1', 'v2', 'v3']);
    expect(fills[0]).toEqual({
      leaseId: 'v1',
      assetUrl: `${base}/media/v1.mp4`,
      mediaType: 'video/mp4',
      popUrl: `${base}/pop/v1`,
      netCpmMillis: 9500,
      expiresAt: NOW + 600_000,
      head: 'Sponsored · Acme',
    });
    expect(supply.stats()).toMatchObject({ requests: 1, fills: 3, dropped: 1, failures: 0 });
  });

  it.each([
    ['never answers', '/hang', /did not answer within 200 ms/],
    ['answers headers, then stalls the body', '/slow-body', /did not answer within 200 ms/],
    ['answers 500', '/fail', /SSP answered HTTP 500/],
    ['answers a redirect', '/redirect', /SSP answered HTTP 302/],
    ['answers JSON that is not {advertisement: [...]}', '/junk', /not \{advertisement/],
    ['answers HTML', '/not-json', /not JSON/],
    ['answers more than 256 kB', '/huge', /larger than/],
    ['is not there', '/nothing-here', /HTTP 404/],
  ])('answers [] when the SSP %s, and logs why', async (_why, path, reason) => {
    const logs = new Logs();
    const supply = supplyAt(path, logs);
    await expect(supply.fill(REQ)).resolves.toEqual([]);
    expect(logs.lines).toHaveLength(1);
    expect(logs.lines[0]?.obj).toMatchObject({ provider: 'vistar', machineNo: 'SBX-ALICE-0001' });
    expect(String(logs.lines[0]?.obj['reason'])).toMatch(reason);
    expect(supply.stats()).toMatchObject({ requests: 1, fills: 0, failures: 1, lastErrorAt: NOW });
  });

  it('answers [] when nothing listens at the SSP address', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const logs = new Logs();
    const supply = new HttpSupply({ url: `http://127.0.0.1:${port}`, apiKey: 'k', networkId: 'n', timeoutMs: 1000 }, logs);
    expect(await supply.fill(REQ)).toEqual([]);
    expect(String(logs.lines[0]?.obj['reason'])).toMatch(/unreachable/);
  });

  it('asks nothing for no slots', async () => {
    const before = seen.length;
    expect(await supplyAt('/ok').fill({ ...REQ, maxFills: 0 })).toEqual([]);
    expect(seen.length).toBe(before);
  });
});

describe('HttpSupply.firePop', () => {
  const pop = (path: string, extra: { displayedAt?: number } = {}) => supplyAt('/ok').firePop({ leaseId: 'v1', popUrl: `${base}${path}`, ...extra });

  it('GETs the PoP URL with display_time in unix seconds; 2xx is done', async () => {
    await pop('/pop/ok?sig=abc', { displayedAt: NOW + 1500 });
    const got = seen.filter((s) => s.url.startsWith('/pop/ok')).at(-1)!;
    expect(got.method).toBe('GET');
    const q = new URL(got.url, 'http://x').searchParams;
    expect(q.get('sig')).toBe('abc');
    expect(q.get('display_time')).toBe(String(Math.floor((NOW + 1500) / 1000)));
  });

  it('takes "already popped" (409) as done', async () => {
    await expect(pop('/pop/again')).resolves.toBeUndefined();
  });

  it('throws a permanent error for a 4xx refusal, a retryable one for 429, 5xx and a timeout', async () => {
    await expect(pop('/pop/gone')).rejects.toMatchObject({ name: 'SupplyPopError', permanent: true, status: 410 });
    await expect(pop('/pop/busy')).rejects.toMatchObject({ permanent: false, status: 429 });
    await expect(pop('/pop/fail')).rejects.toMatchObject({ permanent: false, status: 503 });
    await expect(pop('/pop/hang')).rejects.toMatchObject({ permanent: false, status: null });
  });

  it('refuses for good a PoP URL that is not absolute http(s)', async () => {
    const supply = supplyAt('/ok');
    await expect(supply.firePop({ leaseId: 'x', popUrl: '/ssp/mock/pop/x' })).rejects.toMatchObject({ permanent: true });
    await expect(supply.firePop({ leaseId: 'x', popUrl: 'ftp://ssp.example/pop/x' })).rejects.toMatchObject({ permanent: true });
  });
});
