import { describe, expect, it } from 'vitest';
import { derivedAdminPin } from './admin-pin.ts';

describe('the admin PIN', () => {
  it('derive a stable six-digit admin PIN per cabinet and data key', () => {
    const pin = derivedAdminPin('k'.repeat(32), 'VM-0001-AB');
    expect(pin).toMatch(/^\d{6}$/);
    expect(derivedAdminPin('k'.repeat(32), 'VM-0001-AB')).toBe(pin);
    const others = ['VM-0001-AC', 'VM-0001-AD', 'VM-0001-AE'].map((s) => derivedAdminPin('k'.repeat(32), s));
    expect(others.some((p) => p !== pin)).toBe(true);
    expect(derivedAdminPin('j'.repeat(32), 'VM-0001-AB')).not.toBe(pin);
  });
});
