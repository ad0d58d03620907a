import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { ServiceAttempt } from '@vend/protocol';
import { ServiceGate, codeMatches, hashCode } from './gate.ts';
import type { GateVerdict } from './gate.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-gate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
let HASH = '';
beforeAll(async () => {
  HASH = await hashCode('246810', Buffer.alloc(16, 7));
});

function gateOn(file: string, clock: ManualClock, hash: string | null = HASH) {
  const logged: [ServiceAttempt, GateVerdict][] = [];
  const gate = new ServiceGate({ file, clock, hash: () => (hash ? { hash, source: 'cloud' } : null), log: (a, v) => logged.push([a, v]) });
  return { gate, logged };
}
const freshFile = (): string => join(root, `g${n++}.json`);

describe('the service-code gate (spec 2 §8: 5 wrong codes lock the service functions for 300 s)', () => {
  it('checks a code against the scrypt hash, and nothing against a hash it cannot read', async () => {
    expect(await codeMatches('246810', HASH)).toBe(true);
    expect(await codeMatches('246811', HASH)).toBe(false);
    expect(await codeMatches('246810', HASH.replace('scrypt$16384', 'scrypt$16385'))).toBe(false);
    expect(await codeMatches('246810', 'plain')).toBe(false);
  });

  it('locks after the fifth wrong code, does not check codes while locked, and opens again after 300 s', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const file = freshFile();
    const { gate, logged } = gateOn(file, clock);
    for (let i = 1; i <= 4; i++) expect(await gate.check('000000', 'motor-test', 'cli')).toEqual({ result: 'wrong', remaining: 5 - i, lockedUntil: null });
    const fifth = await gate.check('000000', 'motor-test', 'cli');
    expect(fifth).toEqual({ result: 'wrong', remaining: 0, lockedUntil: clock.now() + 300_000 });
    // the right code is not even looked at now
    expect(await gate.check('246810', 'motor-test', 'control')).toEqual({ result: 'locked', lockedUntil: clock.now() + 300_000 });
    clock.advance(299_999);
    expect((await gate.check('246810', 'log-export', 'cli')).result).toBe('locked');
    clock.advance(1);
    expect(await gate.check('246810', 'log-export', 'cli')).toEqual({ result: 'ok' });
    expect(gate.status()).toMatchObject({ codeSet: true, failures: 0, remaining: 5, lockedUntil: null });
    // every attempt logged and kept for the heartbeat, in order
    expect(logged.map(([a]) => a.result)).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'locked', 'ok']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps the count and the lockout across a restart (a new gate on the same file)', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const file = freshFile();
    for (let i = 0; i < 3; i++) await gateOn(file, clock).gate.check('111111', 'motor-test', 'cli');
    const restarted = gateOn(file, clock).gate;
    expect(restarted.status()).toMatchObject({ failures: 3, remaining: 2 });
    await restarted.check('111111', 'motor-test', 'cli');
    await gateOn(file, clock).gate.check('111111', 'motor-test', 'cli');
    const again = gateOn(file, clock).gate;
    expect(again.status().lockedUntil).toBe(new Date(clock.now() + 300_000).toISOString());
    expect((await again.check('246810', 'motor-test', 'cli')).result).toBe('locked');
    clock.advance(300_000);
    expect((await gateOn(file, clock).gate.check('246810', 'motor-test', 'cli')).result).toBe('ok');
  });

  it('a right code clears the count; four wrong, one right, four wrong does not lock', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const { gate } = gateOn(freshFile(), clock);
    for (let i = 0; i < 4; i++) await gate.check('999999', 'network', 'control');
    expect((await gate.check('246810', 'network', 'control')).result).toBe('ok');
    for (let i = 0; i < 4; i++) expect((await gate.check('999999', 'network', 'control')).result).toBe('wrong');
    expect(gate.status().lockedUntil).toBeNull();
  });

  it('two checks at once in one process count both', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const { gate } = gateOn(freshFile(), clock);
    await Promise.all([1, 2, 3, 4, 5].map(() => gate.check('123123', 'motor-test', 'control')));
    expect(gate.status().lockedUntil).not.toBeNull();
  });

  it('a clock set back cannot stretch a lockout past 300 s from now', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const { gate } = gateOn(freshFile(), clock);
    for (let i = 0; i < 5; i++) await gate.check('123123', 'motor-test', 'cli');
    clock.set(Date.parse('2026-11-25T12:00:00Z'));
    expect(gate.status().lockedUntil).toBe('2026-11-25T12:05:00.000Z');
  });

  it('without a code nothing unlocks (the attempt is still recorded)', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const { gate } = gateOn(freshFile(), clock, null);
    expect(await gate.check('246810', 'motor-test', 'cli')).toEqual({ result: 'no-code' });
    expect(gate.status()).toMatchObject({ codeSet: false, source: 'none', failures: 0, unreported: 1 });
  });

  it('reports attempts in the heartbeat until the cloud answered; those made meanwhile wait for the next', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const { gate } = gateOn(freshFile(), clock);
    await gate.check('000000', 'motor-test', 'cli');
    await gate.check('246810', 'motor-test', 'cli');
    const first = gate.report();
    expect(first.report).toMatchObject({ failures: 0, lockedUntil: null, dropped: 0 });
    expect(first.report.attempts.map((a) => [a.id, a.result])).toEqual([
      [1, 'wrong'],
      [2, 'ok'],
    ]);
    await gate.check('000000', 'log-export', 'control');
    first.ack();
    const second = gate.report().report;
    expect(second.attempts.map((a) => [a.id, a.action, a.result, a.source])).toEqual([[3, 'log-export', 'wrong', 'control']]);
    expect(second.failures).toBe(1);
  });

  it('keeps at most 50 unreported attempts and counts the rest', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const { gate } = gateOn(freshFile(), clock, null); // no code: no KDF per attempt, the same bookkeeping
    for (let i = 0; i < 53; i++) {
      await gate.check('246810', 'motor-test', 'cli');
      clock.advance(1000);
    }
    const { report, ack } = gate.report();
    expect(report.attempts).toHaveLength(50);
    expect(report.attempts[0]!.id).toBe(4);
    expect(report.dropped).toBe(3);
    ack();
    expect(gate.report().report).toMatchObject({ attempts: [], dropped: 0 });
  });
});
