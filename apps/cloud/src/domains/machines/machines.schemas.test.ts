import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasUnsafeChars } from '@vend/protocol';
import { RegisterBody, UpdateBody, canonicalTimeZone, degrees, salesTaxRate } from './machines.schemas.ts';

describe('lat/lng strings', () => {
  const lat = degrees('lat');
  const lng = degrees('lng');
  it('accept decimal degrees within range', () => {
    expect(lat.parse('40.7506')).toBe(40.7506);
    expect(lat.parse('-90')).toBe(-90);
    expect(lng.parse('+180.0')).toBe(180);
    expect(Object.is(lat.parse('-0'), 0)).toBe(true);
  });
  it('refuse out of range, non-finite, exponent and padded forms with a message naming the field', () => {
    for (const bad of ['90.0001', '-91', 'NaN', 'Infinity', '1e2', ' 40', '40 ', '', '0x10', '40,5', '1.12345678901']) {
      const r = lat.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toContain('lat must be decimal degrees between -90 and 90');
    }
    expect(lng.safeParse('180.5').success).toBe(false);
    expect(lng.safeParse('-179.999').success).toBe(true);
  });
  it('refuse numbers as a type error (the API takes strings)', () => {
    expect(lat.safeParse(40.7).error?.issues[0]?.code).toBe('invalid_type');
  });
});

describe('timeZone', () => {
  it('accepts IANA names and stores their canonical spelling', () => {
    expect(canonicalTimeZone('Europe/London')).toBe('Europe/London');
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).not.toBeNull();
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Etc/GMT+1')).toBe('Etc/GMT+1');
  });
  it('refuses offsets, unknown names and over-long names', () => {
    for (const bad of ['+01:00', '-05:00', 'UTC+01:00', 'GMT+1', 'Mars/Olympus_Mons', 'Europe/', '/London', 'Europe//London', '', `Europe/${'a'.repeat(60)}`]) {
      expect(canonicalTimeZone(bad), bad).toBeNull();
    }
  });
});

describe('salesTaxRate', () => {
  it('is a percentage 0–100 with at most 4 decimals', () => {
    for (const ok of [0, 8.875, 100, 0.0001, 12.3456]) expect(salesTaxRate.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [-0.01, 100.0001, 1.23456, 0.00001]) expect(salesTaxRate.safeParse(bad).success, String(bad)).toBe(false);
    expect(salesTaxRate.safeParse('8.875').error?.issues[0]?.code).toBe('invalid_type');
  });
  it('accepts every value written with at most 4 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        expect(salesTaxRate.safeParse(Number((n / 1e4).toFixed(4))).success).toBe(true);
      }),
    );
  });
});

describe('request bodies', () => {
  it('register: machineNo faults are all named', () => {
    const r = RegisterBody.safeParse({ machineNo: 'ab_c' });
    expect(r.error?.issues[0]?.message).toContain('letters, digits, hyphens only and 8–32 characters');
  });
  it('refuse unknown fields rather than ignore them', () => {
    expect(UpdateBody.safeParse({ latitude: '1' }).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(RegisterBody.safeParse({ machineNo: 'ABCDEFGH', status: 'online' }).success).toBe(false);
  });
  it('enforce the §8 length limits', () => {
    expect(UpdateBody.safeParse({ name: 'n'.repeat(100) }).success).toBe(true);
    expect(UpdateBody.safeParse({ name: 'n'.repeat(101) }).success).toBe(false);
    expect(UpdateBody.safeParse({ notes: 'n'.repeat(256) }).success).toBe(false);
    expect(UpdateBody.safeParse({ location: 'n'.repeat(256) }).success).toBe(false);
    expect(UpdateBody.safeParse({ address: 'n'.repeat(256) }).success).toBe(false);
    expect(UpdateBody.safeParse({ placeId: 'n'.repeat(129) }).success).toBe(false);
    expect(UpdateBody.safeParse({ placeId: 'n'.repeat(128) }).success).toBe(true);
  });
  it('refuse an empty name and control characters', () => {
    expect(UpdateBody.safeParse({ name: '   ' }).success).toBe(false);
    expect(UpdateBody.safeParse({ name: 'a\u0000b' }).success).toBe(false);
    expect(UpdateBody.safeParse({ notes: 'line one\nline two' }).success).toBe(true);
    expect(UpdateBody.safeParse({ location: 'a\nb' }).success).toBe(false);
  });
});

describe('unsafe characters', () => {
  it('flags controls and lone surrogates, not paired ones', () => {
    expect(hasUnsafeChars('café 😀', false)).toBe(false);
    expect(hasUnsafeChars('\ud800', false)).toBe(true);
    expect(hasUnsafeChars('a\udc00', false)).toBe(true);
    expect(hasUnsafeChars('\u0085', false)).toBe(true);
    expect(hasUnsafeChars('\t', true)).toBe(false);
    expect(hasUnsafeChars('\t', false)).toBe(true);
  });
  it('agrees with a code-point definition for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }), (s) => {
        const expected = [...s].some((ch) => {
          const c = ch.codePointAt(0)!;
          return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff);
        });
        expect(hasUnsafeChars(s, false)).toBe(expected);
      }),
    );
  });
});
