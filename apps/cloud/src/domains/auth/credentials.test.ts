import { describe, expect, it } from 'vitest';
import { maskSecret, mintAccessToken, mintApiKey, mintRecoveryCode, mintTicket, normalizeRecoveryCode, parseApiKey } from './credentials.ts';

describe('credentials', () => {
  it('mints API keys that parse back to their id and secret', () => {
    const k = mintApiKey();
    expect(parseApiKey(k.key)).toEqual({ keyId: k.keyId, secret: k.secret });
    expect(parseApiKey(`vk_${k.keyId}`)).toBeNull();
    expect(parseApiKey(`vk_XYZ.${k.secret}`)).toBeNull();
  });

  it('mints distinct opaque tokens and tickets with their prefixes', () => {
    const a = mintAccessToken();
    expect(a).toMatch(/^vat_[A-Za-z0-9_-]{43}$/);
    expect(mintAccessToken()).not.toBe(a);
    expect(mintTicket()).toMatch(/^vmt_[A-Za-z0-9_-]{43}$/);
  });

  it('masks to the handle only', () => {
    expect(maskSecret('vk_0123456789abcdef')).toBe('vk_0123456789abcdef.••••••••');
  });

  it('mints recovery codes of 16 Crockford characters in groups of four, all different', () => {
    const codes = Array.from({ length: 50 }, mintRecoveryCode);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('normalises what a person types back: case, spaces, hyphens, and I/L/O read as 1/1/0', () => {
    const code = mintRecoveryCode();
    const canonical = code.replace(/-/g, '');
    expect(normalizeRecoveryCode(code)).toBe(canonical);
    expect(normalizeRecoveryCode(` ${code.toLowerCase().replace(/-/g, ' ')} `)).toBe(canonical);
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN-PQRS'.replace('A', 'O'))).toBe('0BCDEFGHJKMNPQRS');
    expect(normalizeRecoveryCode('IL00-0000-0000-0000')).toBe('1100000000000000');
  });

  it('refuses what cannot be a recovery code', () => {
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN')).toBeNull();
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN-PQRU')).toBeNull(); // U is not Crockford
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN-PQRS-')).toBe('ABCDEFGHJKMNPQRS');
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN-PQRS-T')).toBeNull();
    expect(normalizeRecoveryCode('')).toBeNull();
  });
});
