import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, suiteServer, type ApiResponse, type TestServer } from '../../testing/harness.ts';
import { ADMIN, FLEET, enrolled, keyHeader } from './gateway.test-support.ts';

/**
 * Heartbeat and pending are answered by the lean dispatch ahead of the stack (http/lean-dispatch.ts) when
 * called exactly so; any other spelling (here a trailing slash) walks the full stack to the same routes.
 * Both must answer alike, success and failure, and both count in /metrics.
 */

type Call = [method: 'GET' | 'POST', path: string, opts: Parameters<typeof call>[3]];

/** What must agree between the two paths: status, body (the server's clock masked) and which headers are set. */
function shape(r: ApiResponse) {
  const names: string[] = [];
  r.headers.forEach((_v, h) => {
    if (!['date', 'keep-alive', 'connection'].includes(h)) names.push(h);
  });
  names.sort();
  return { status: r.status, body: r.text.replace(/"serverTime":"[^"]*"/, '"serverTime":"…"'), headers: names, type: r.headers.get('content-type') };
}

describe.each(DIALECTS)('the hot legs on %s', (dialect) => {
  const t = suiteServer(dialect);
  let key = '';
  let serial = '';

  beforeAll(async () => {
    ({ key, serial } = await enrolled(t));
  });

  const cases = (): [string, Call][] => [
    ['heartbeat', ['POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { agentVersion: '1.4.2', vmcVersion: 'VMC-2.4.1' } }]],
    ['heartbeat naming its own serial', ['POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { equipmentNo: serial } }]],
    ['heartbeat without a body', ['POST', '/cabinet/heartbeat', { headers: keyHeader(key) }]],
    ['heartbeat, no credential', ['POST', '/cabinet/heartbeat', { json: {} }]],
    ['heartbeat, the fleet secret (refused on this leg)', ['POST', '/cabinet/heartbeat', { headers: FLEET, json: { equipmentNo: serial } }]],
    ['heartbeat, unknown key', ['POST', '/cabinet/heartbeat', { headers: keyHeader('dk_nosuchkey:abc'), json: {} }]],
    [
      'heartbeat, malformed JSON',
      ['POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'content-type': 'application/json' }, body: '{"agentVersion":' }],
    ],
    ['heartbeat, a JSON array', ['POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'content-type': 'application/json' }, body: '[1]' }]],
    ['heartbeat, wrong type', ['POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { agentVersion: 7 } }]],
    ['heartbeat, another serial', ['POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { equipmentNo: 'SBX-BOB-0001' } }]],
    [
      'heartbeat, a form body',
      ['POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'content-type': 'application/x-www-form-urlencoded' }, body: 'agentVersion=1.0.0' }],
    ],
    ['pending', ['GET', '/cabinet/pending', { headers: keyHeader(key) }]],
    // a conditional request is answered by Express's send (sendOk's slow path): the lean call is given Express's setup first
    ['pending, conditional', ['GET', '/cabinet/pending', { headers: { ...keyHeader(key), 'if-none-match': '"x"' } }]],
    [
      'heartbeat, conditional',
      ['POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, json: {} }],
    ],
    ['pending with its serial', ['GET', '/cabinet/pending', { headers: keyHeader(key), query: { equipmentNo: serial } }]],
    ['pending, wait out of range', ['GET', '/cabinet/pending', { headers: keyHeader(key), query: { wait: '99' } }]],
    ['pending, wait not a number', ['GET', '/cabinet/pending', { headers: keyHeader(key), query: { wait: 'soon' } }]],
    ['pending, no credential', ['GET', '/cabinet/pending', {}]],
    ['pending, another serial', ['GET', '/cabinet/pending', { headers: keyHeader(key), query: { equipmentNo: 'SBX-BOB-0001' } }]],
  ];

  it('answer exactly as the full stack does, success and failure alike', async () => {
    for (const [name, [method, path, opts]] of cases()) {
      const lean = await call(t.url, method, path, opts);
      const full = await call(t.url, method, `${path}/`, opts);
      expect({ name, ...shape(lean) }).toEqual({ name, ...shape(full) });
      expect(lean.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('carry the caller’s request id and answer an unknown method or spelling through the stack', async () => {
    const r = await call(t.url, 'POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'x-request-id': 'hb-123' }, json: {} });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe('hb-123');
    expect(r.headers.get('x-device-witness')).toBeTruthy();
    expect((await call(t.url, 'GET', '/cabinet/heartbeat', { headers: keyHeader(key) })).status).toBe(404);
    expect((await call(t.url, 'GET', '/CABINET/PENDING', { headers: keyHeader(key) })).status).toBe(200);
  });

  it('are counted in /metrics by their route pattern', async () => {
    const metrics = async () => (await call(t.url, 'GET', '/metrics', { headers: ADMIN })).text;
    const count = (text: string, series: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.split(' ')[1] ?? 0,
      );
    const hb = 'vend_http_requests_total{route="/cabinet/heartbeat",method="POST",status="200"}';
    const hb401 = 'vend_http_requests_total{route="/cabinet/heartbeat",method="POST",status="401"}';
    const pending = 'vend_http_request_duration_seconds_count{route="/cabinet/pending",method="GET",status="200"}';
    const before = await metrics();
    await call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: {} });
    await call(t.url, 'POST', '/cabinet/heartbeat', { json: {} });
    await call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(key) });
    const after = await metrics();
    expect(count(after, hb) - count(before, hb)).toBe(1);
    expect(count(after, hb401) - count(before, hb401)).toBe(1);
    expect(count(after, pending) - count(before, pending)).toBe(1);
  });
});

describe('the hot legs’ log lines', () => {
  let t: TestServer;
  const lines: { level: number; msg: string; req?: { id?: string; url?: string }; res?: { statusCode?: number } }[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
        done();
      },
    });
    t = await startTestServer('sqlite', { logDestination: sink });
  });
  afterAll(async () => t.close());

  it('are at debug for an answered call and at info for a refused one, never with the credential', async () => {
    const { key } = await enrolled(t);
    await call(t.url, 'POST', '/cabinet/heartbeat', { headers: { ...keyHeader(key), 'x-request-id': 'hb-ok' }, json: {} });
    await call(t.url, 'GET', '/cabinet/pending', { headers: { 'x-device-key': 'dk_nosuchkey:secret-value', 'x-request-id': 'pd-401' } });
    await new Promise((r) => setTimeout(r, 50));
    const ok = lines.filter((l) => l.req?.id === 'hb-ok');
    const refused = lines.filter((l) => l.req?.id === 'pd-401');
    expect(ok.map((l) => [l.level, l.res?.statusCode])).toEqual([[20, 200]]);
    expect(refused.map((l) => [l.level, l.res?.statusCode, l.req?.url])).toEqual([[30, 401, '/cabinet/pending']]);
    const all = JSON.stringify(lines);
    expect(all).not.toContain('secret-value');
    expect(all).not.toContain(key.split(':')[1]);
  });
});
