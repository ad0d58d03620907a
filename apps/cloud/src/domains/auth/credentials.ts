import { randomBytes } from 'node:crypto';
import { mintSecret, randomHex } from '../../crypto/secrets.ts';

/**
 * API key form: `vk_<keyId>.<secret>`. The key id (16 hex) is the lookup handle and is not secret;
 * the secret is 32 random bytes, stored only as a salted SHA-256.
 */
const API_KEY = /^vk_([0-9a-f]{16})\.([A-Za-z0-9_-]{8,128})$/;

export function parseApiKey(raw: string): { keyId: string; secret: string } | null {
  const m = API_KEY.exec(raw);
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}

export function mintApiKey(): { keyId: string; secret: string; key: string } {
  const keyId = randomHex(8);
  const secret = mintSecret();
  return { keyId, secret, key: `vk_${keyId}.${secret}` };
}

/** Opaque bearer tokens: `vat_` + 32 random bytes; stored as SHA-256. */
export const ACCESS_TOKEN_PREFIX = 'vat_';
export function mintAccessToken(): string {
  return ACCESS_TOKEN_PREFIX + mintSecret();
}

/** Sign-in tickets (between the password/social step and the MFA step): `vmt_` + 32 random bytes; stored as SHA-256. */
export const TICKET_PREFIX = 'vmt_';
export function mintTicket(): string {
  return TICKET_PREFIX + mintSecret();
}

/** Shows enough to recognise a credential, never enough to use it. */
export function maskSecret(handle: string): string {
  return `${handle}.••••••••`;
}

/**
 * Recovery codes: 16 characters of Crockford base32 (80 bits, so a salted SHA-256 of one is out of
 * reach of offline guessing), shown as `XXXX-XXXX-XXXX-XXXX`. Input is
 * compared after {@link normalizeRecoveryCode}, so case, spaces and hyphens do not matter, and the
 * letters Crockford reads as digits (I, L → 1; O → 0) are accepted.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_CODE_COUNT = 10;

export function mintRecoveryCode(): string {
  let s = '';
  for (const b of randomBytes(16)) s += CROCKFORD[b & 31];
  return s.match(/.{4}/g)!.join('-');
}

/** The canonical form a recovery code is hashed and compared in; null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (s.length !== 16) return null;
  for (const ch of s) if (!CROCKFORD.includes(ch)) return null;
  return s;
}
