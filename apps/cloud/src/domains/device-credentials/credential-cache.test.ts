import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { CredentialCache } from './credential-cache.ts';
import { secretDigest } from './device-keys.ts';

const value = (machineId: string, state = 'active') => ({ machineId, state });

describe('verified device-key cache', () => {
  it('answers only for the secret that verified (constant-time digest match)', () => {
    const c = new CredentialCache(new ManualClock(0), { max: 10, ttlMs: 5000 });
    c.set('dk_a', secretDigest('right'), value('m1'), c.ticket());
    expect(c.get('dk_a', secretDigest('right'))).toEqual(value('m1'));
    expect(c.get('dk_a', secretDigest('wrong'))).toBeUndefined();
    expect(c.get('dk_b', secretDigest('right'))).toBeUndefined();
  });

  it('forgets an entry once its TTL has passed: the bound on another replica’s revocation', () => {
    const clock = new ManualClock(0);
    const c = new CredentialCache(clock, { max: 10, ttlMs: 5000 });
    c.set('dk_a', secretDigest('s'), value('m1'), c.ticket());
    clock.advance(4999);
    expect(c.get('dk_a', secretDigest('s'))).toBeDefined();
    clock.advance(1);
    expect(c.get('dk_a', secretDigest('s'))).toBeUndefined();
  });

  it('is bounded, evicting the least recently used', () => {
    const c = new CredentialCache(new ManualClock(0), { max: 2, ttlMs: 5000 });
    c.set('dk_1', secretDigest('1'), value('m1'), c.ticket());
    c.set('dk_2', secretDigest('2'), value('m2'), c.ticket());
    expect(c.get('dk_1', secretDigest('1'))).toBeDefined(); // 1 is now the most recent
    c.set('dk_3', secretDigest('3'), value('m3'), c.ticket());
    expect(c.size).toBe(2);
    expect(c.get('dk_2', secretDigest('2'))).toBeUndefined();
    expect(c.get('dk_1', secretDigest('1'))).toBeDefined();
    expect(c.get('dk_3', secretDigest('3'))).toBeDefined();
  });

  it('drops every entry of a machine on invalidation, and never caches a load that started before it', () => {
    const c = new CredentialCache(new ManualClock(0), { max: 10, ttlMs: 5000 });
    c.set('dk_a', secretDigest('a'), value('m1'), c.ticket());
    c.set('dk_b', secretDigest('b'), value('m1'), c.ticket());
    c.set('dk_c', secretDigest('c'), value('m2'), c.ticket());
    const ticket = c.ticket(); // a load of m1 starts (reads "active" from the store) ...
    c.invalidateMachine('m1'); // ... a revocation commits and invalidates ...
    expect(c.get('dk_a', secretDigest('a'))).toBeUndefined();
    expect(c.get('dk_b', secretDigest('b'))).toBeUndefined();
    expect(c.get('dk_c', secretDigest('c'))).toBeDefined();
    c.set('dk_a', secretDigest('a'), value('m1'), ticket); // ... and the stale load finishes: not cached
    expect(c.get('dk_a', secretDigest('a'))).toBeUndefined();
    c.set('dk_a', secretDigest('a'), value('m1', 'revoked'), c.ticket());
    expect(c.get('dk_a', secretDigest('a'))).toEqual(value('m1', 'revoked'));
  });
});
