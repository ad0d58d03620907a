import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlStatus } from '@vend/protocol';
import { DispenseRefused } from '../spool/dispenser.ts';
import type { VendResult, WalkUpRequest } from '../spool/dispenser.ts';
import { ControlBindError, startControlServer } from './server.ts';
import type { ControlServer } from './server.ts';

const quiet = { info: () => {}, warn: () => {} };
const vend = (aisle: number): VendResult => ({
  dispenseId: 'walkup:ord_1',
  kind: 'order',
  commandId: null,
  orderNumber: 'ord_1',
  aisle,
  success: true,
  outcome: 'success',
  detail: 'ok',
  motorRan: 'yes',
});

/** A status as the daemon builds it (every field of ControlStatus). */
function statusOf(overrides: Partial<ControlStatus> = {}): ControlStatus {
  return {
    agent: {
      version: '1.0.0',
      pid: 42,
      startedAt: '2026-11-20T12:00:00.000Z',
      uptimeSeconds: 5,
      stateDir: '/s',
      equipmentNo: 'CAB-0001',
      deviceId: 'mid-1',
      memory: { rssMb: 50 },
    },
    enrolment: { state: 'enrolled', keyId: 'dk_0123456789abcdef', machineCode: 'CAB-0001' },
    cloud: { url: 'http://cloud', reachable: true, lastAnswerAt: null, lastSuccessAt: null, registeredAt: null, lastError: null },
    board: {
      port: '/dev/ttyUSB0',
      state: 'ok',
      vmcVersion: null,
      module: null,
      rows: null,
      columnsPerRow: null,
      bootId: null,
      problems: [],
      checkedAt: null,
      lastError: null,
    },
    spool: { depth: 0, delivered: 0, duplicates: 0, rejected: [], lastError: null },
    dispensing: { recovered: true, busy: false, current: null, leased: 0, lastActivityAt: null },
    config: {
      source: 'defaults',
      machineCode: 'CAB-0001',
      pollInterval: 5,
      heartbeatInterval: 60,
      dispatchMode: 'both',
      rows: 6,
      columnsPerRow: 10,
      adminPin: null,
    },
    upgrade: { deferring: null, blocked: null, quiet: { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 5 } },
    lastErrors: [],
    ...overrides,
  };
}

let server: ControlServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(o: { token?: string; walkUp?: (r: WalkUpRequest) => Promise<VendResult>; status?: () => ControlStatus } = {}) {
  const walkUps: WalkUpRequest[] = [];
  const warnings: string[] = [];
  let token = o.token ?? 'tok-123';
  server = await startControlServer({
    host: '127.0.0.1',
    port: 0,
    token: () => token,
    log: { info: () => {}, warn: (fields) => warnings.push(JSON.stringify(fields)) },
    api: {
      status: o.status ?? (() => statusOf()),
      planogram: async () => ({ machineCode: 'CAB-0001', currency: null, aisles: [], stale: true, fetchedAt: null }),
      walkUp: async (r) => {
        walkUps.push(r);
        return (o.walkUp ?? (async (x) => vend(x.aisle)))(r);
      },
      vends: (limit) => Array.from({ length: limit }, (_, i) => ({ ...vend(i + 1), at: i, report: 'pending' as const })),
      enrolNow: async () => ({ state: 'enrolled', keyId: null, machineCode: null }),
      upgradeCheck: async () => ({ result: 'none' }),
    },
  });
  const call = async (method: string, path: string, opts: { token?: string | null; body?: string; host?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const t = opts.token === undefined ? token : opts.token;
    if (t !== null) headers['authorization'] = `Bearer ${t}`;
    if (opts.host) headers['host'] = opts.host;
    return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(server!.url + path, { method, headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end(opts.body);
    });
  };
  return { call, walkUps, warnings, setToken: (t: string) => (token = t) };
}

describe('control channel', () => {
  it('binds to loopback only: any other address is refused before listening', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'localhost']) {
      await expect(startControlServer({ host, port: 0, token: () => 't', log: quiet, api: {} as never })).rejects.toBeInstanceOf(ControlBindError);
    }
  });

  it('answers /healthz to anyone, everything else only with the bearer token (401 without)', async () => {
    const { call } = await start();
    expect((await call('GET', '/healthz', { token: null })).status).toBe(200);
    expect((await call('GET', '/v1/status', { token: null })).status).toBe(401);
    expect((await call('GET', '/v1/status', { token: 'wrong' })).status).toBe(401);
    expect((await call('POST', '/v1/dispense', { token: null, body: '{"aisle":1}' })).status).toBe(401);
    expect(await call('GET', '/v1/status')).toEqual({ status: 200, body: statusOf() });
    expect((await call('GET', '/v1/vends?limit=3')).body['vends']).toEqual([1, 2, 3].map((aisle, i) => ({ ...vend(aisle), at: i, report: 'pending' })));
  });

  it('an empty token authenticates nobody: every dispense is refused, whatever is presented', async () => {
    const { call, walkUps } = await start({ token: '' });
    for (const t of [null, '', 'anything']) {
      const r = await call('POST', '/v1/dispense', { token: t, body: '{"aisle":1}' });
      expect(r.status).toBe(401);
      expect(r.body['message']).toMatch(/empty control token/);
    }
    expect(walkUps).toEqual([]);
  });

  it('refuses a request naming a non-loopback Host (DNS rebinding from a browser)', async () => {
    const { call } = await start();
    expect((await call('GET', '/v1/status', { host: 'evil.example:8770' })).status).toBe(421);
    expect((await call('GET', '/v1/status', { host: 'localhost:8770' })).status).toBe(200);
  });

  it('validates the dispense body and maps refusals: busy 409, not ready 503, the cloud’s 409 kept', async () => {
    const answers: (VendResult | DispenseRefused)[] = [
      new DispenseRefused('busy', 'a dispense is running'),
      new DispenseRefused('not-ready', 'recovering'),
      new DispenseRefused('cloud-refused', 'Aisle 2 is empty', 409),
      new DispenseRefused('cloud-refused', 'boom', 500),
      vend(2),
    ];
    const { call, walkUps } = await start({
      walkUp: async () => {
        const a = answers.shift()!;
        if (a instanceof DispenseRefused) throw a;
        return a;
      },
    });
    expect((await call('POST', '/v1/dispense', { body: '{"aisle":0}' })).status).toBe(400);
    expect((await call('POST', '/v1/dispense', { body: '{"aisle":2,"extra":1}' })).status).toBe(400);
    expect((await call('POST', '/v1/dispense', { body: 'not json' })).status).toBe(400);
    expect((await call('POST', '/v1/dispense', { body: JSON.stringify({ aisle: 2, pad: 'x'.repeat(5000) }) })).status).toBe(413);
    expect(walkUps).toEqual([]);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('POST', '/v1/dispense', { body: '{"aisle":2,"payMethod":"card","cardLast4":"4242"}' })).status);
    expect(statuses).toEqual([409, 503, 409, 502, 200]);
    expect(walkUps[0]).toEqual({ aisle: 2, payMethod: 'card', cardLast4: '4242' });
  });

  it('reads the token at each request: changing the file takes effect without a restart', async () => {
    const { call, setToken } = await start();
    expect((await call('GET', '/v1/status')).status).toBe(200);
    setToken('new-token');
    expect((await call('GET', '/v1/status', { token: 'tok-123' })).status).toBe(401);
    expect((await call('GET', '/v1/status', { token: 'new-token' })).status).toBe(200);
  });

  it('checks every answer against its schema: one that does not fit is a 500 (logged), never sent', async () => {
    const broken = { ...statusOf(), board: { ...statusOf().board, state: 'melting' } } as unknown as ControlStatus;
    const { call, warnings } = await start({ status: () => broken });
    expect(await call('GET', '/v1/status')).toEqual({ status: 500, body: { error: 'internal', message: 'internal error' } });
    expect(warnings.join('\n')).toMatch(/answer does not fit its schema: .*board\.state/);
  });
});
