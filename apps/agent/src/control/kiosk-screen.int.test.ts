import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckoutData, Clock, ControlPlanogram, ControlStatus } from '@vend/protocol';
import { FEATURE_DEFAULTS } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { Reachability } from '../cloud/client.ts';
import { ServiceGate, hashCode } from '../service/index.ts';
import type { DispenseEntry } from '../spool/book.ts';
import { storefront } from '../storefront/index.ts';
import { startControlServer } from './server.ts';
import type { ControlServer } from './server.ts';

// The kiosk's storefront, pay-by-phone and service routes and the screen's own files, over a real
// socket: no token, an exact Host, the channel's own origin allowed and any other refused, JSON bodies,
// one purchase at a time, and nothing that dispenses.

const CLOUD = 'http://cloud.example:8080';
const T0 = Date.parse('2026-12-05T12:00:00Z');
const CODE = '135790';
let server: ControlServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const aisle = (aisleNo: number, o: Partial<ControlPlanogram['aisles'][number]> = {}): ControlPlanogram['aisles'][number] => ({
  aisleNo,
  sku: `SKU-${aisleNo}`,
  name: `Item ${aisleNo}`,
  price: 1.5,
  priceCents: 150,
  stock: 5,
  maxStock: 10,
  faulted: false,
  sellable: true,
  imageUrl: null,
  ...o,
});

const checkoutOf = (o: Partial<CheckoutData> = {}): CheckoutData => ({
  checkoutId: 'chk_1',
  aisleNo: 1,
  name: 'Item 1',
  amountCents: 150,
  amount: 1.5,
  currency: 'USD',
  payUrl: `${CLOUD}/buy/chk_1`,
  status: 'awaiting_payment',
  createdAt: '2026-12-05T12:00:00.000Z',
  expiresAt: '2026-12-05T12:03:00.000Z',
  secondsLeft: 180,
  paidAt: null,
  orderNumber: null,
  commandId: null,
  refund: null,
  detail: null,
  ...o,
});

interface Rig {
  cloudReachable: boolean;
  boardState: ControlStatus['board']['state'];
  boardProblems: string[] | null;
  created: number[];
  createAnswer: () => Promise<CheckoutData>;
  getAnswer: () => Promise<CheckoutData>;
  cancelled: string[];
  book: Map<string, DispenseEntry>;
  reach: Reachability;
}

async function start() {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-screen-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>screen</title>');
  writeFileSync(join(dir, 'screen.js'), 'void 0;');
  const now = { t: T0 };
  const clock = { now: () => now.t, monotonic: () => now.t } as unknown as Clock;
  const rig: Rig = {
    cloudReachable: true,
    boardState: 'ok',
    boardProblems: null,
    created: [],
    createAnswer: async () => checkoutOf(),
    getAnswer: async () => checkoutOf(),
    cancelled: [],
    book: new Map(),
    reach: { lastAnswerAt: T0, lastSuccessAt: T0, lastError: null, consecutiveFailures: 0, retired: false },
  };
  const hash = await hashCode(CODE, Buffer.alloc(16, 3));
  const gate = new ServiceGate({ file: join(dir, 'service-code.json'), clock, hash: () => ({ hash, source: 'cloud' }), log: () => {} });
  const status = () =>
    ({
      agent: {
        version: '1.0.0',
        pid: 1,
        startedAt: '2026-12-05T12:00:00.000Z',
        uptimeSeconds: 1,
        stateDir: '/s',
        equipmentNo: 'CAB-0001',
        deviceId: 'd',
        memory: {},
      },
      enrolment: { state: 'enrolled', keyId: 'dk_0000000000000001', machineCode: 'CAB-0001' },
      spool: { depth: 0, delivered: 0, duplicates: 0, rejected: [], lastError: null },
      lastErrors: [],
      cloud: { url: CLOUD, reachable: rig.cloudReachable, lastAnswerAt: '2026-12-05T12:00:00.000Z', lastSuccessAt: null, registeredAt: null, lastError: null },
      board: {
        port: '/dev/x',
        state: rig.boardState,
        vmcVersion: '1.0',
        module: 'SH',
        rows: 6,
        columnsPerRow: 10,
        bootId: 1,
        problems: rig.boardProblems ?? (rig.boardState === 'fault' ? ['a lane is jammed'] : []),
        checkedAt: null,
        lastError: null,
      },
    }) as unknown as ControlStatus;
  const api = storefront({
    machineCode: 'CAB-0001',
    cloudUrl: CLOUD,
    clock,
    client: {
      reachability: rig.reach,
      createCheckout: async (aisleNo) => {
        rig.created.push(aisleNo);
        return rig.createAnswer();
      },
      checkout: async () => rig.getAnswer(),
      cancelCheckout: async (id) => {
        rig.cancelled.push(id);
        return checkoutOf({ status: 'cancelled', secondsLeft: 0 });
      },
    },
    planogram: async () => ({
      machineCode: 'CAB-0001',
      currency: 'USD',
      aisles: [
        aisle(1),
        aisle(2, { stock: 0, sellable: false }),
        aisle(3, { faulted: true, sellable: false }),
        aisle(4, { priceCents: 0, price: 0, sellable: false }),
        aisle(5, { name: null, sku: null, stock: 0, sellable: false }),
      ],
      stale: false,
      fetchedAt: '2026-12-05T12:00:00.000Z',
    }),
    status,
    features: () => ({ ...FEATURE_DEFAULTS, htmlStorefront: true }),
    book: { get: (id) => rig.book.get(id) },
    inFlight: () => null,
    checkCode: (code, action) => gate.check(code, action, 'control'),
  });
  server = await startControlServer({
    host: '127.0.0.1',
    port: 0,
    token: () => 'tok',
    api: {} as never,
    storefront: api,
    screenDir: dir,
    cloudOrigin: CLOUD,
    log: { info: () => {}, warn: () => {} },
  });
  const port = server.port;
  const call = (method: string, path: string, h: Record<string, string> = {}, body?: unknown) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; json: Record<string, unknown> }>((resolve, reject) => {
      const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...h };
      const req = request(server!.url + path, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // a file or an empty answer
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    });
  return { call, rig, port, now };
}

describe('the screen’s files', () => {
  it('serves the built screen at /screen/ under a policy that runs only its own script and talks only to this channel', async () => {
    const { call } = await start();
    const page = await call('GET', '/screen/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`img-src 'self' data: https: ${CLOUD}`);
    expect(csp).toContain(`media-src 'self' ${CLOUD}`);
    expect((await call('GET', '/screen/screen.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await call('GET', '/screen/', { 'if-none-match': String(page.headers['etag']) })).status).toBe(304);
    expect((await call('GET', '/screen')).headers['location']).toBe('/screen/');
  });

  it('serves nothing else: no other folder, no unknown type, no write, no foreign Host', async () => {
    const { call } = await start();
    for (const path of ['/screen/..%2Fservice-code.json', '/screen/service-code.json', '/screen/.hidden.js', '/screen/a/b.js', '/screen/x.exe'])
      expect((await call('GET', path)).status, path).toBe(404);
    expect((await call('POST', '/screen/', {}, {})).status).toBe(405);
    expect((await call('GET', '/screen/', { host: 'evil.example:80' })).status).toBe(421);
  });
});

describe('the storefront', () => {
  it('shows each lane as the shopper may buy it, and lanes never set up not at all', async () => {
    const { call } = await start();
    const r = await call('GET', '/v1/kiosk/screen');
    expect(r.status).toBe(200);
    expect(r.json['items']).toEqual([
      { aisleNo: 1, name: 'Item 1', priceCents: 150, stock: 5, state: 'available', imageUrl: null },
      { aisleNo: 2, name: 'Item 2', priceCents: 150, stock: 0, state: 'sold_out', imageUrl: null },
      { aisleNo: 3, name: 'Item 3', priceCents: 150, stock: 5, state: 'faulted', imageUrl: null },
      { aisleNo: 4, name: 'Item 4', priceCents: 0, stock: 5, state: 'unpriced', imageUrl: null },
    ]);
    expect(r.json).toMatchObject({ payByPhone: true, payByPhoneReason: null, busy: false, retired: false, currency: 'USD' });
  });

  it('says plainly why paying by phone is unavailable: the cloud away, the board faulted, the machine retired', async () => {
    const { call, rig } = await start();
    rig.cloudReachable = false;
    expect((await call('GET', '/v1/kiosk/screen')).json).toMatchObject({
      payByPhone: false,
      payByPhoneReason: expect.stringMatching(/cannot reach the network/),
    });
    rig.cloudReachable = true;
    rig.boardState = 'fault';
    // a jammed lane is that lane's fault: the others still sell
    expect((await call('GET', '/v1/kiosk/screen')).json).toMatchObject({ payByPhone: true, board: { state: 'fault', fault: 'a lane is jammed' } });
    rig.boardProblems = ['lift fault'];
    expect((await call('GET', '/v1/kiosk/screen')).json).toMatchObject({ payByPhone: false, payByPhoneReason: 'This machine cannot vend right now' });
    rig.boardState = 'unavailable';
    rig.boardProblems = [];
    expect((await call('GET', '/v1/kiosk/screen')).json).toMatchObject({ payByPhone: false, payByPhoneReason: 'This machine cannot vend right now' });
    rig.boardState = 'ok';
    rig.reach.retired = true;
    expect((await call('GET', '/v1/kiosk/screen')).json).toMatchObject({
      payByPhone: false,
      retired: true,
      payByPhoneReason: 'This machine is out of service',
    });
  });
});

describe('pay by phone', () => {
  it('one purchase at a time: a second shopper is told the machine is busy and the cloud is not asked twice', async () => {
    const { call, rig } = await start();
    const first = await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ checkoutId: 'chk_1', payUrl: `${CLOUD}/buy/chk_1`, local: null, stale: false });
    const second = await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    expect(second.status).toBe(409);
    expect(second.json['error']).toBe('busy');
    expect(rig.created).toEqual([1]);
    expect((await call('GET', '/v1/kiosk/screen')).json['busy']).toBe(true);
  });

  it('follows the purchase with the board’s own view laid over the cloud’s; once over, the next shopper may start at once', async () => {
    const { call, rig, now } = await start();
    await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    rig.getAnswer = async () => checkoutOf({ status: 'paid', commandId: 'cmd_1', orderNumber: 'RD1' });
    now.t += 2_000;
    expect((await call('GET', '/v1/kiosk/checkouts/current')).json).toMatchObject({ status: 'paid', local: null });
    rig.book.set('drop:cmd_1', { id: 'drop:cmd_1', intent: {} as never });
    now.t += 2_000;
    expect((await call('GET', '/v1/kiosk/checkouts/current')).json).toMatchObject({ status: 'paid', local: 'vending' });
    expect((await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 })).status).toBe(409);
    rig.book.set('drop:cmd_1', { id: 'drop:cmd_1', intent: {} as never, outcome: { success: false } as never });
    expect((await call('GET', '/v1/kiosk/checkouts/current')).json).toMatchObject({ local: 'failed' });
    // over: the screen may still ask how it ended, and a new purchase starts
    expect((await call('GET', '/v1/kiosk/screen')).json['busy']).toBe(false);
    rig.createAnswer = async () => checkoutOf({ checkoutId: 'chk_2' });
    expect((await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 })).json['checkoutId']).toBe('chk_2');
  });

  it('answers 204 when no purchase is under way, and forgets an unpaid one past its expiry even with the cloud away', async () => {
    const { call, rig, now } = await start();
    expect((await call('GET', '/v1/kiosk/checkouts/current')).status).toBe(204);
    await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    rig.getAnswer = () => Promise.reject(new CloudError('unreachable', 'checkoutGet: ECONNREFUSED'));
    now.t += 2_000;
    expect((await call('GET', '/v1/kiosk/checkouts/current')).json).toMatchObject({ status: 'awaiting_payment', stale: true });
    now.t += 180_000;
    expect((await call('GET', '/v1/kiosk/screen')).json['busy']).toBe(false);
    expect((await call('GET', '/v1/kiosk/checkouts/current')).status).toBe(204);
  });

  it('cancels an unpaid purchase when the shopper gives up', async () => {
    const { call, rig } = await start();
    await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    const r = await call('POST', '/v1/kiosk/checkouts/current/cancel', {}, {});
    expect(r.json).toMatchObject({ status: 'cancelled' });
    expect(rig.cancelled).toEqual(['chk_1']);
  });

  it.each([
    [new CloudError('http', 'checkoutCreate: 409 Aisle 1 is sold out', 409), 409, 'refused', /sold out/],
    [new CloudError('http', 'checkoutCreate: 503 Payments are not configured', 503), 503, 'pay-by-phone-unavailable', /not available/],
    [new CloudError('http', 'checkoutCreate: 410 Machine retired', 410), 410, 'retired', /out of service/],
    [new CloudError('unreachable', 'checkoutCreate: ECONNREFUSED'), 503, 'cloud-unreachable', /cannot reach the network/],
  ])('a cloud refusal reaches the screen as words a shopper reads (%#)', async (error, status, code, message) => {
    const { call, rig } = await start();
    rig.createAnswer = () => Promise.reject(error);
    const r = await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1 });
    expect(r.status).toBe(status);
    expect(r.json['error']).toBe(code);
    expect(String(r.json['message'])).toMatch(message);
    expect((await call('GET', '/v1/kiosk/screen')).json['busy']).toBe(false);
  });

  it('takes JSON only, from this channel’s own pages or none: another origin is refused with nothing asked of the cloud', async () => {
    const { call, rig, port } = await start();
    expect((await call('POST', '/v1/kiosk/checkouts', { 'content-type': 'text/plain' }, '{"aisleNo":1}')).status).toBe(415);
    expect((await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 'one' })).status).toBe(400);
    expect((await call('POST', '/v1/kiosk/checkouts', {}, { aisleNo: 1, price: 1 })).status).toBe(400);
    expect((await call('POST', '/v1/kiosk/checkouts', { origin: 'https://evil.example' }, { aisleNo: 1 })).status).toBe(403);
    expect(rig.created).toEqual([]);
    const own = await call('POST', '/v1/kiosk/checkouts', { origin: `http://127.0.0.1:${port}` }, { aisleNo: 1 });
    expect(own.status).toBe(201);
    expect(own.headers['access-control-allow-origin']).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('service mode from the screen', () => {
  it('shows the status only for the right code; the cabinet’s lockout counts the screen’s wrong codes', async () => {
    const { call } = await start();
    const wrong = await call('POST', '/v1/kiosk/service', {}, { code: '000000' });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toMatchObject({ check: { result: 'wrong', remaining: 4 }, status: null });
    const right = await call('POST', '/v1/kiosk/service', {}, { code: CODE });
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ check: { result: 'ok' }, status: { agent: { equipmentNo: 'CAB-0001' } } });
    for (let i = 0; i < 5; i++) await call('POST', '/v1/kiosk/service', {}, { code: '000000' });
    const locked = await call('POST', '/v1/kiosk/service', {}, { code: CODE });
    expect(locked.status).toBe(423);
    expect(locked.json).toMatchObject({ check: { result: 'locked' }, status: null });
  });
});
