import { hash, timingSafeEqual } from 'node:crypto';
import { DEVICE_SECRET_BYTES, type DeviceKey } from '@vend/protocol';
import { mintSecret, randomHex } from '../../crypto/secrets.ts';

/** A new key generation: `dk_` + 16 hex (not secret) and 32 random bytes, URL-safe base64 (shown once). */
export function mintDeviceKey(): DeviceKey {
  return { keyId: `dk_${randomHex(8)}`, secret: mintSecret(DEVICE_SECRET_BYTES) };
}

/**
 * SHA-256 of a presented secret: what the in-process cache compares (in constant time), never stored.
 * The one-shot `crypto.hash` (Node ≥ 20.12), not a `Hash` object per call: on every cabinet call (and the witness's two).
 */
export function secretDigest(secret: string): Buffer {
  return sha256(secret);
}

/** SHA-256 of a short string, one shot. */
export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
