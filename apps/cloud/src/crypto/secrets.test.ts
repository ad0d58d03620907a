import { describe, expect, it } from 'vitest';
import { Sealer, hashPassword, hashSecret, safeEqual, verifyPassword, verifySecret } from './secrets.ts';

describe('secret storage', () => {
  it('salted SHA-256 verifies only the right secret, and two hashes of one secret differ', () => {
    const h1 = hashSecret('s3cret-value');
    const h2 = hashSecret('s3cret-value');
    expect(h1).not.toBe(h2);
    expect(h1).not.toContain('s3cret');
    expect(verifySecret('s3cret-value', h1)).toBe(true);
    expect(verifySecret('s3cret-valuE', h1)).toBe(false);
    expect(verifySecret('s3cret-value', 'garbage')).toBe(false);
  });

  it('scrypt passwords verify, and an absent hash never does', async () => {
    const h = await hashPassword('correct horse');
    expect(h.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('correct horsf', h)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });

  it('sealed values open only under the same key and detect tampering', () => {
    const a = new Sealer('a'.repeat(32));
    const sealed = a.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DP');
    expect(a.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => new Sealer('b'.repeat(32)).open(sealed)).toThrow();
    const parts = sealed.split('$');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => a.open(parts.join('$'))).toThrow();
  });

  it('safeEqual compares whole strings', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
