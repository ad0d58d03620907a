import { describe, expect, it } from 'vitest';
import { DEVICE_KEY_ID_PATTERN, DEVICE_SECRET_PATTERN } from '@vend/protocol';
import { mintDeviceKey, sameDigest, secretDigest } from './device-keys.ts';

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
});
