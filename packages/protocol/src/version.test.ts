import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareVersions, isDottedVersion } from './version.ts';

describe('dotted-numeric versions', () => {
  it('compares numerically, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('0.9.9', '1.0.0')).toBe(-1);
  });
  it('refuses what is not dotted-numeric', () => {
    for (const bad of ['', '1.', '.1', 'v1.0', '1.0.0-beta', '01.2', '1..2', '1.2.3.4.5']) expect(isDottedVersion(bad)).toBe(false);
    expect(() => compareVersions('1.x', '1.0')).toThrow(RangeError);
  });
  it('is antisymmetric and agrees with component order', () => {
    const v = fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 4 }).map((a) => a.join('.'));
    fc.assert(
      fc.property(v, v, (a, b) => {
        expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0);
      }),
    );
  });
});
