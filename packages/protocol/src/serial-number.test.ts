import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeSerialFaults, isClaimableSerial, serialFaults } from './serial-number.ts';

describe('claimable-serial rule', () => {
  it('accepts letters, digits and hyphens of 8 to 32 characters', () => {
    expect(isClaimableSerial('VM-0001-AB')).toBe(true);
    expect(isClaimableSerial('A'.repeat(8))).toBe(true);
    expect(isClaimableSerial('A'.repeat(32))).toBe(true);
  });
  it('names every fault at once', () => {
    expect(serialFaults('ab_c')).toEqual(['letters, digits, hyphens only', '8–32 characters']);
    expect(serialFaults('A'.repeat(33))).toEqual(['8–32 characters']);
    expect(serialFaults('ABCDEFG!')).toEqual(['letters, digits, hyphens only']);
    expect(describeSerialFaults('ab_c')).toContain('letters, digits, hyphens only and 8–32 characters');
  });
  it('agrees with the regular expression for any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        expect(isClaimableSerial(s)).toBe(/^[A-Za-z0-9-]{8,32}$/.test(s));
      }),
    );
  });
});
