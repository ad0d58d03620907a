import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers for one query. */
export type FakeReply =
  | { kind: 'found'; osmType?: 'node' | 'way' | 'relation'; osmId?: number; lat?: string; lon?: string; displayName?: string }
  | { kind: 'none' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };

export interface SeenRequest {
  path: string;
  params: Record<string, string>;
  userAgent: string | undefined;
}

export interface FakeNominatim {
  url: string;
  requests: SeenRequest[];
  /** Overrides the answer for one exact query. */
  reply(q: string, r: FakeReply): void;
  close(): Promise<void>;
}

/**
 * A local stand-in for OpenStreetMap Nominatim's `/search?format=jsonv2`, answering in its own
 * format. By default a query containing `nowhere` finds nothing, `boom` answers 503, `hang` never
 * answers, and anything else finds one way whose display name is `<q>, Springfield, United States`.
 */
export async function startFakeNominatim(): Promise<FakeNominatim> {
  const requests: SeenRequest[] = [];
  const overrides = new Map<string, FakeReply>();
  const defaultReply = (q: string): FakeReply =>
    q.includes('nowhere') ? { kind: 'none' } : q.includes('boom') ? { kind: 'status', status: 503 } : q.includes('hang') ? { kind: 'hang' } : { kind: 'found' };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const params = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, params, userAgent: req.headers['user-agent'] });
    if (url.pathname !== '/search') {
      res.writeHead(404).end();
      return;
    }
    const q = params['q'] ?? '';
    const r = overrides.get(q) ?? defaultReply(q);
    switch (r.kind) {
      case 'hang':
        return; // the socket stays open until the client gives up or the fake closes
      case 'status':
        res.writeHead(r.status, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
        return;
      case 'none':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('[]');
        return;
      case 'found': {
        const body = [
          {
            place_id: 299_120_011,
            licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
            osm_type: r.osmType ?? 'way',
            osm_id: r.osmId ?? 123_456,
            lat: r.lat ?? '39.7817213',
            lon: r.lon ?? '-89.6501481',
            category: 'building',
            type: 'yes',
            place_rank: 30,
            importance: 0.3,
            addresstype: 'building',
            name: '',
            display_name: r.displayName ?? `${q}, Springfield, United States`,
            boundingbox: ['39.78', '39.79', '-89.66', '-89.64'],
          },
        ];
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (q, r) => void overrides.set(q, r),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
