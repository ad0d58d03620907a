import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { backoffDelay, parseRetryAfter } from './backoff.ts';
import { CloudClient } from './client.ts';
import { MemoryCredentialStore } from './credentials.ts';
import { Enroller } from './enrolment.ts';
import type { HttpRequest, HttpResponse } from './http.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const KEY = { keyId: 'dk_0123456789abcdef', deviceKey: 'Z'.repeat(43), machineCode: 'SBX-BOB-0001' };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

function rig(answers: (n: number) => { status: number; message?: string; data?: unknown }) {
  const clock = new ManualClock(0);
  const store = new MemoryCredentialStore(null);
  const requests: HttpRequest[] = [];
  const conflicts: string[] = [];
  const transport = async (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    const a = answers(requests.length);
    return { status: a.status, headers: {}, body: JSON.stringify({ code: a.status, message: a.message ?? 'x', data: a.data ?? null }) };
  };
  const client = new CloudClient({
    baseUrl: 'http://cloud.test',
    equipmentNo: 'SBX-BOB-0001',
    fleetSecret: 'fleet',
    credentials: store,
    transport,
    clock,
    random: () => 0,
    timeoutMs: 8000,
    backoff: { baseMs: 1000, capMs: 60_000 },
    log: quiet,
  });
  const enroller = new Enroller({
    client,
    credentials: store,
    deviceId: 'mid-0123456789abcdef',
    clock,
    random: () => 0,
    log: quiet,
    recordConflict: (m) => conflicts.push(m),
    waitMs: 5000,
    conflictRetryMs: 600_000,
  });
  return { clock, store, requests, conflicts, enroller };
}

describe('enrolment', () => {
  it('428 (no arm yet) is retried, with growing waits, until the cloud lets it enrol; keyId:deviceKey is stored as one string', async () => {
    const { clock, store, requests, enroller } = rig((n) => (n < 4 ? { status: 428, message: 'Nothing proves this claimant' } : { status: 200, data: KEY }));
    const ac = new AbortController();
    const done = enroller.run(ac.signal);
    await flush();
    expect(enroller.status()).toMatchObject({ state: 'waiting-for-arm', attempts: 1 });
    // random 0: waits are d/2 with d = 5 s, 10 s, 20 s
    for (const wait of [2500, 5000, 10_000]) {
      clock.advance(wait - 1);
      await flush();
      const before = requests.length;
      clock.advance(1);
      await flush();
      expect(requests.length).toBe(before + 1);
    }
    expect(await done).toBe(true);
    expect(store.current()).toBe(`${KEY.keyId}:${KEY.deviceKey}`);
    expect(enroller.status()).toMatchObject({ state: 'enrolled', keyId: KEY.keyId });
  });

  it('403 is revocation: it stops at once, for good', async () => {
    const { store, requests, enroller } = rig(() => ({ status: 403, message: 'Credential revoked' }));
    expect(await enroller.run(new AbortController().signal)).toBe(false);
    expect(store.isRevoked()).toBe(true);
    expect(enroller.status().state).toBe('revoked');
    expect((await enroller.attempt()).state).toBe('revoked');
    expect(requests).toHaveLength(1);
  });

  it('409 (agent state lost) is recorded for a technician, naming the identity reset, and retried only slowly', async () => {
    const { clock, requests, conflicts, enroller } = rig(() => ({ status: 409, message: 'Cabinet is already enrolled' }));
    const ac = new AbortController();
    const done = enroller.run(ac.signal);
    await flush();
    expect(enroller.status().state).toBe('conflict');
    expect(conflicts[0]).toMatch(/already enrolled.*identity\/reset/);
    clock.advance(599_000);
    await flush();
    expect(requests).toHaveLength(1);
    enroller.kick(); // `vend-agent enrol`
    await flush();
    expect(requests).toHaveLength(2);
    ac.abort();
    expect(await done).toBe(false);
  });
});

describe('backoff', () => {
  it('grows exponentially within [d/2, d], capped, and takes Retry-After over its own delay', () => {
    const o = { baseMs: 1000, capMs: 8000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, { ...o, random: () => 0 }))).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, { ...o, random: () => 0.999999 }))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelay(3, { ...o, random: () => 0.5 }, 12_000)).toBe(12_000);
    expect(backoffDelay(3, { ...o, random: () => 0.5 }, 99_999_999)).toBe(3_600_000);
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
