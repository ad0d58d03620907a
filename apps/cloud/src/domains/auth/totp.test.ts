import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { matchTotp, newTotpSecret, totpStep } from './totp.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const T0 = Date.parse('2026-11-20T12:00:10Z');
/** An independent oracle: otpauth's static generator with RFC 6238 parameters. */
const codeAt = (secret: string, ms: number) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: ms });

describe('TOTP', () => {
  it('matches RFC 6238 appendix B (SHA-1, 8 digits truncated to the last 6)', () => {
    // RFC 6238 test secret "12345678901234567890"; T=59 s → 94287082, so the 6-digit code is 287082.
    const rfcSecret = new Secret({ buffer: new TextEncoder().encode('12345678901234567890').buffer }).base32;
    expect(matchTotp(rfcSecret, '287082', 59_000)).toBe(1);
    expect(matchTotp(rfcSecret, '287083', 59_000)).toBeNull();
  });

  it('accepts the current step and one step either side, and answers which step matched', () => {
    const step = totpStep(T0);
    expect(matchTotp(SECRET, codeAt(SECRET, T0), T0)).toBe(step);
    expect(matchTotp(SECRET, codeAt(SECRET, T0 - 30_000), T0)).toBe(step - 1);
    expect(matchTotp(SECRET, codeAt(SECRET, T0 + 30_000), T0)).toBe(step + 1);
  });

  it('refuses codes two steps away', () => {
    expect(matchTotp(SECRET, codeAt(SECRET, T0 - 60_000), T0)).toBeNull();
    expect(matchTotp(SECRET, codeAt(SECRET, T0 + 60_000), T0)).toBeNull();
  });

  it('refuses anything that is not six ASCII digits without throwing', () => {
    for (const bad of ['', '12345', '1234567', '12345é', '١٢٣٤٥٦', '12 456', 'abcdef']) expect(matchTotp(SECRET, bad, T0)).toBeNull();
  });

  it('mints 160-bit base32 secrets with an otpauth URL an authenticator understands', () => {
    const a = newTotpSecret('alice@example.test');
    expect(a.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret('x@y.z').secret).not.toBe(a.secret);
    const url = new URL(a.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(a.secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(url.pathname)).toContain('alice@example.test');
    expect(matchTotp(a.secret, codeAt(a.secret, T0), T0)).toBe(totpStep(T0));
  });
});
