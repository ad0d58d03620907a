import { describe, expect, it } from 'vitest';
import { DEVICE_KEY_ID_PATTERN, DEVICE_SECRET_PATTERN } from '@vend/protocol';
import { derivedAdminPin, mintDeviceKey, sameDigest, secretDigest } from './device-keys.ts';

describe('device keys', () => {
  it('mint dk_ + 16 hex and 32 random bytes as URL-safe base64, never twice the same', () => {
    const a = mintDeviceKey();
    const b = mintDeviceKey();
    expect(a.keyId).toMatch(DEVICE_KEY_ID_PATTERN);
    expect(a.secret).toMatch(DEVICE_SECRET_PATTERN);
    expect(Buffer.from(a.secret, 'base64url')).toHaveLength(32);
    expect(a.keyId).not.toBe(b.keyId);
    expect(a.secret).not.toBe(b.secret);
  });

  it('compare digests of whole secrets', () => {
    expect(sameDigest(secretDigest('abc'), secretDigest('abc'))).toBe(true);
    expect(sameDigest(secretDigest('abc'), secretDigest('abd'))).toBe(false);
  });

  it('derive a stable six-digit admin PIN per cabinet and data key', () => {
    const pin = derivedAdminPin('k'.repeat(32), 'VM-0001-AB');
    expect(pin).toMatch(/^\d{6}$/);
    expect(derivedAdminPin('k'.repeat(32), 'VM-0001-AB')).toBe(pin);
    const others = ['VM-0001-AC', 'VM-0001-AD', 'VM-0001-AE'].map((s) => derivedAdminPin('k'.repeat(32), s));
    expect(others.some((p) => p !== pin)).toBe(true);
    expect(derivedAdminPin('j'.repeat(32), 'VM-0001-AB')).not.toBe(pin);
  });
});
