import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, ±1 step accepted. */
export const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const WINDOW = 1;
const ISSUER = 'Vend';

function totpFor(base32Secret: string, label = 'operator'): TOTP {
  return new TOTP({ issuer: ISSUER, label, ...TOTP_PARAMS, secret: Secret.fromBase32(base32Secret) });
}

/** A fresh 160-bit secret (RFC 4226's recommended length) in base32, and its `otpauth://` URL for QR enrolment. */
export function newTotpSecret(accountLabel: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpFor(secret, accountLabel).toString() };
}

/** The 30-second step a time falls in. */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PARAMS.period);
}

/**
 * The step a code belongs to when it is valid at `now` (the current step ±1), else null. The
 * caller refuses a step already used (RFC 6238 §5.2: a code is accepted once).
 */
export function matchTotp(base32Secret: string, code: string, now: number): number | null {
  // otpauth compares with timingSafeEqual over bytes: anything but 6 ASCII digits never reaches it.
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(base32Secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : totpStep(now) + delta;
}
