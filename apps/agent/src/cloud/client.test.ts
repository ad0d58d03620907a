import { describe, expect, it } from 'vitest';
import { ManualClock, CONFIG_DEFAULTS, FEATURE_DEFAULTS } from '@vend/protocol';
import { CloudClient, CloudError } from './client.ts';
import { MemoryCredentialStore } from './credentials.ts';
import { HttpTransportError } from './http.ts';
import type { HttpRequest, HttpResponse } from './http.ts';

const K1 = `dk_${'1'.repeat(16)}:${'a'.repeat(43)}`;
const K2 = `dk_${'2'.repeat(16)}:${'b'.repeat(43)}`;
const K3 = `dk_${'3'.repeat(16)}:${'c'.repeat(43)}`;
const CONFIG = {
  ...CONFIG_DEFAULTS,
  features: { ...FEATURE_DEFAULTS },
  machineCode: 'SBX-ALICE-0001',
  kioskUiUrl: '',
  adminPin: '123456',
  adminPinSource: 'derived',
};
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

type Answer = Partial<HttpResponse> & { data?: unknown; throws?: Error };

/** A cloud that answers from a script and records every request. */
function fakeCloud(script: (req: HttpRequest, n: number) => Answer | Promise<Answer>) {
  const requests: HttpRequest[] = [];
  const transport = async (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    const a = await script(req, requests.length);
    if (a.throws) throw a.throws;
    const status = a.status ?? 200;
    return {
      status,
      headers: a.headers ?? {},
      body: a.body ?? JSON.stringify({ code: status, message: status < 300 ? 'success' : 'refused', data: a.data ?? null }),
    };
  };
  return { requests, transport };
}

function client(script: Parameters<typeof fakeCloud>[0], o: { key?: string | null; fleetSecret?: string } = {}) {
  const clock = new ManualClock(1_000_000);
  const store = new MemoryCredentialStore(o.key === undefined ? K1 : o.key);
  const cloud = fakeCloud(script);
  const c = new CloudClient({
    baseUrl: 'http://cloud.test',
    equipmentNo: 'SBX-ALICE-0001',
    fleetSecret: o.fleetSecret ?? 'fleet-secret-xyz',
    credentials: store,
    transport: cloud.transport,
    clock,
    random: () => 0.5,
    timeoutMs: 8000,
    backoff: { baseMs: 1000, capMs: 60_000 },
    log: quiet,
  });
  /** Runs a call to the end, moving the clock through its backoff waits; returns the time it took. */
  const drive = async <T>(p: Promise<T>): Promise<{ value?: T; error?: unknown; tookMs: number }> => {
    const start = clock.now();
    let done = false;
    let value: T | undefined;
    let error: unknown;
    p.then(
      (v) => ((done = true), (value = v)),
      (e: unknown) => ((done = true), (error = e)),
    );
    for (let i = 0; i < 10_000 && !done; i++) {
      for (let j = 0; j < 5; j++) await new Promise((r) => setImmediate(r));
      if (!done) clock.advance(100);
    }
    return { value, error, tookMs: clock.now() - start };
  };
  return { c, store, clock, requests: cloud.requests, drive };
}

const hb = { status: 'online', serverTime: '2026-11-22T12:00:00.000+0000' };

describe('cloud client: which credential goes out', () => {
  it('before enrolment: the fleet secret on the legs that take it, nothing on the others (they are not even sent)', async () => {
    const { c, requests } = client(() => ({ data: CONFIG }), { key: null });
    await c.config();
    expect(requests[0]!.headers['secret']).toBe('fleet-secret-xyz');
    expect(requests[0]!.headers['x-device-key']).toBeUndefined();
    await expect(c.pending()).rejects.toMatchObject({ kind: 'no-credential' });
    await expect(c.heartbeat({})).rejects.toMatchObject({ kind: 'no-credential' });
    expect(requests).toHaveLength(1);
  });

  it('once enrolled: x-device-key on every leg, the fleet secret never again', async () => {
    const { c, requests } = client((req) => ({ data: req.url.includes('config') ? CONFIG : req.url.includes('pending') ? { commands: [] } : hb }));
    await c.config();
    await c.pending();
    await c.heartbeat({ agentVersion: '1.0.0' });
    for (const r of requests) {
      expect(r.headers['x-device-key']).toBe(K1);
      expect(r.headers['secret']).toBeUndefined();
      expect(r.headers['x-equipment-no']).toBe('SBX-ALICE-0001');
    }
    expect(JSON.parse(requests[2]!.body!)).toMatchObject({ equipmentNo: 'SBX-ALICE-0001', agentVersion: '1.0.0' });
  });

  it('enrolment always uses the fleet secret and the deviceId', async () => {
    const { c, requests } = client(() => ({ data: { keyId: 'dk_0123456789abcdef', deviceKey: 'x'.repeat(43), machineCode: 'SBX-ALICE-0001' } }), { key: null });
    await c.enrol('mid-1234567890');
    expect(requests[0]!.headers['secret']).toBe('fleet-secret-xyz');
    expect(JSON.parse(requests[0]!.body!)).toEqual({ equipmentNo: 'SBX-ALICE-0001', deviceId: 'mid-1234567890' });
  });
});

describe('cloud client: the witness token', () => {
  it('is never invented: none until one was handed over, then the last one seen is echoed', async () => {
    const witnesses = [undefined, 'n1.aaa', undefined, 'n1.bbb'];
    const { c, requests } = client((_r, n) => ({ data: hb, headers: witnesses[n - 1] ? { 'x-device-witness': witnesses[n - 1]! } : {} }));
    for (let i = 0; i < 5; i++) await c.heartbeat({});
    expect(requests.map((r) => r.headers['x-device-witness'])).toEqual([undefined, undefined, 'n1.aaa', 'n1.aaa', 'n1.bbb']);
  });
});

describe('cloud client: the witness token under overlapping calls', () => {
  it('keeps the token of the latest-sent request, not of the answer that arrived last (3 calls answered in reverse order)', async () => {
    // the cloud mints a token per request in the order it takes them (the order sent); the answers come back reversed
    const gates: ((a: Answer) => void)[] = [];
    const { c, requests } = client((_r, n) => (n <= 3 ? new Promise<Answer>((resolve) => (gates[n - 1] = resolve)) : { data: hb }));
    const calls = [c.heartbeat({}), c.pending(), c.config()];
    await new Promise((r) => setImmediate(r));
    expect(requests).toHaveLength(3);
    gates[2]!({ data: CONFIG, headers: { 'x-device-witness': 'n1.t3' } });
    await calls[2];
    gates[1]!({ data: { commands: [] }, headers: { 'x-device-witness': 'n1.t2' } });
    await calls[1];
    gates[0]!({ data: hb, headers: { 'x-device-witness': 'n1.t1' } });
    await calls[0];
    expect(c.lastWitness).toBe('n1.t3');
    await c.heartbeat({});
    expect(requests[3]!.headers['x-device-witness']).toBe('n1.t3');
  });

  it('an answer to a later-sent request replaces the token; one to an earlier request does not', async () => {
    const gates: ((a: Answer) => void)[] = [];
    const { c, requests } = client((_r, n) =>
      n <= 2 ? new Promise<Answer>((resolve) => (gates[n - 1] = resolve)) : { data: hb, headers: { 'x-device-witness': `n1.t${n}` } },
    );
    const a = c.heartbeat({});
    const b = c.heartbeat({});
    await new Promise((r) => setImmediate(r));
    gates[1]!({ data: hb, headers: { 'x-device-witness': 'n1.t2' } });
    await b;
    await c.heartbeat({}); // sent third, answered at once: its token is the newest
    expect(c.lastWitness).toBe('n1.t3');
    gates[0]!({ data: hb, headers: { 'x-device-witness': 'n1.t1' } });
    await a;
    expect(c.lastWitness).toBe('n1.t3');
    await c.heartbeat({});
    expect(requests.map((r) => r.headers['x-device-witness'])).toEqual([undefined, undefined, 'n1.t2', 'n1.t3']);
  });
});

describe('cloud client: credential handover', () => {
  it('stores the rotated credential before the next call presents it; the old generation is never presented again', async () => {
    const { c, store, requests } = client((_r, n) => ({ data: hb, headers: n === 2 ? { 'x-device-credential': K2 } : {} }));
    const presentedWhenStored: number[] = [];
    const replace = store.replace.bind(store);
    store.replace = (next) => {
      presentedWhenStored.push(requests.length);
      replace(next);
    };
    for (let i = 0; i < 4; i++) await c.heartbeat({});
    expect(store.history).toEqual([K1, K2]);
    expect(presentedWhenStored).toEqual([2]); // stored while answering call 2, before call 3 went out
    expect(requests.map((r) => r.headers['x-device-key'])).toEqual([K1, K1, K2, K2]);
  });

  it('ignores a handover answering an older generation (a call that was in flight when the rotation completed)', async () => {
    let release: (() => void) | null = null;
    const { c, store } = client(async (req, n) => {
      if (n === 1) {
        await new Promise<void>((r) => (release = r)); // the slow call, sent with K1
        return { data: hb, headers: { 'x-device-credential': K3 } };
      }
      return { data: hb, headers: n === 2 ? { 'x-device-credential': K2 } : {} };
    });
    const slow = c.heartbeat({});
    await new Promise((r) => setImmediate(r));
    await c.heartbeat({}); // hands over K2
    release!();
    await slow;
    expect(store.current()).toBe(K2);
    expect(store.history).toEqual([K1, K2]);
  });

  it('a 401 to a call made with the generation that just retired is tried once more with the new one', async () => {
    let release: (() => void) | null = null;
    const { c, requests } = client(async (req, n) => {
      if (n === 1) {
        await new Promise<void>((r) => (release = r));
        return { status: 401, data: null };
      }
      return { data: hb, headers: n === 2 ? { 'x-device-credential': K2 } : {} };
    });
    const slow = c.heartbeat({}, { attempts: 1 });
    await new Promise((r) => setImmediate(r));
    await c.heartbeat({});
    release!();
    await expect(slow).resolves.toMatchObject({ status: 'online' });
    expect(requests.map((r) => r.headers['x-device-key'])).toEqual([K1, K1, K2]);
  });
});

describe('cloud client: revocation', () => {
  it('403 to the key: marked revoked, and from then on nothing is presented, no leg is called, no enrolment is tried', async () => {
    const { c, store, requests } = client(() => ({ status: 403, body: JSON.stringify({ code: 403, message: 'Credential revoked', data: null }) }));
    await expect(c.pending()).rejects.toMatchObject({ kind: 'revoked', status: 403 });
    expect(store.revokedMessage).toBe('Credential revoked');
    await expect(c.heartbeat({})).rejects.toMatchObject({ kind: 'revoked' });
    await expect(c.config()).rejects.toMatchObject({ kind: 'revoked' });
    await expect(c.enrol('mid-1234567890')).rejects.toMatchObject({ kind: 'revoked' });
    expect(requests).toHaveLength(1);
  });
});

describe('cloud client: timeouts and retries', () => {
  it('retries a 503 with capped exponential backoff and jitter, then succeeds', async () => {
    const { c, requests, drive } = client((_r, n) => (n < 3 ? { status: 503, data: null } : { data: hb }));
    const r = await drive(c.heartbeat({}, { attempts: 5 }));
    expect(r.value).toMatchObject({ status: 'online' });
    expect(requests).toHaveLength(3);
    // random 0.5: attempt 0 waits 750 ms (d = 1000), attempt 1 waits 1500 ms (d = 2000)
    expect(r.tookMs).toBeGreaterThanOrEqual(2250);
    expect(r.tookMs).toBeLessThan(2500);
  });

  it('honours Retry-After instead of its own delay', async () => {
    const { c, requests, drive } = client((_r, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '7' }, data: null } : { data: hb }));
    const r = await drive(c.heartbeat({}));
    expect(requests).toHaveLength(2);
    expect(r.tookMs).toBeGreaterThanOrEqual(7000);
    expect(r.tookMs).toBeLessThan(7200);
  });

  it('gives up after its attempts with the last error; a 4xx is not retried', async () => {
    const down = client(() => ({ throws: new HttpTransportError('timeout', 'no answer within 8000 ms', false) }));
    const r = await down.drive(down.c.pending({ attempts: 3 }));
    expect(r.error).toBeInstanceOf(CloudError);
    expect(r.error).toMatchObject({ kind: 'timeout' });
    expect(down.requests).toHaveLength(3);
    expect(down.c.reachability.consecutiveFailures).toBe(3);
    const refused = client(() => ({ status: 400, data: null }));
    await expect(refused.c.pending({ attempts: 3 })).rejects.toMatchObject({ kind: 'http', status: 400 });
    expect(refused.requests).toHaveLength(1);
  });

  it('never repeats createOrder after a timeout (an order may exist), but does when the request provably never left', async () => {
    const timeout = client(() => ({ throws: new HttpTransportError('timeout', 'no answer', false) }));
    const r1 = await timeout.drive(timeout.c.createOrder({ aisleNo: 1, quantity: 1 }, { attempts: 3 }));
    expect(r1.error).toMatchObject({ kind: 'timeout' });
    expect(timeout.requests).toHaveLength(1);
    const order = { orderNumber: 'ord_1', machineCode: 'SBX-ALICE-0001', aisleNo: 1, quantity: 1, amount: 1.5, amountCents: 150, payStatus: 'paid' };
    const refused = client((_r, n) => (n === 1 ? { throws: new HttpTransportError('network', 'ECONNREFUSED', true) } : { data: order }));
    const r2 = await refused.drive(refused.c.createOrder({ aisleNo: 1, quantity: 1 }, { attempts: 3 }));
    expect(r2.value).toMatchObject({ orderNumber: 'ord_1' });
    expect(refused.requests).toHaveLength(2);
  });

  it('repeats createOrder after a timeout when it carries a requestRef (the cloud answers the same order), with the same reference', async () => {
    const order = { orderNumber: 'ord_2', machineCode: 'SBX-ALICE-0001', aisleNo: 1, quantity: 1, amount: 1.5, amountCents: 150, payStatus: 'paid' };
    const lost = client((_r, n) => (n === 1 ? { throws: new HttpTransportError('timeout', 'no answer', false) } : { data: order }));
    const r = await lost.drive(lost.c.createOrder({ aisleNo: 1, quantity: 1, requestRef: 'wu-test-ref-1' }, { attempts: 2 }));
    expect(r.value).toMatchObject({ orderNumber: 'ord_2' });
    expect(lost.requests).toHaveLength(2);
    expect(lost.requests.map((q) => (JSON.parse(q.body!) as { requestRef?: string }).requestRef)).toEqual(['wu-test-ref-1', 'wu-test-ref-1']);
  });

  it('a 2xx whose data is not the protocol shape is an error, not a success', async () => {
    const { c } = client(() => ({ data: { commands: 'nope' } }));
    await expect(c.pending()).rejects.toMatchObject({ kind: 'bad-response' });
  });
});
