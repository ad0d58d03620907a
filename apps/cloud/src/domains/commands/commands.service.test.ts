import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isReward, orderNumberFor } from './commands.service.ts';

describe('isReward', () => {
  it('is true for a reason that starts with reward in any letter case', () => {
    for (const r of ['reward', 'reward: loyalty', 'Reward points', 'REWARD', 'rewarded', '  reward after spaces']) expect(isReward(r)).toBe(true);
  });
  it('is false otherwise', () => {
    for (const r of ['', 'rewar', 'a reward', 'prize reward', 'refund', 'rew ard']) expect(isReward(r)).toBe(false);
  });
  it('agrees with a case-insensitive prefix test on any text', () => {
    fc.assert(fc.property(fc.string(), (s) => isReward(s) === /^reward/i.test(s.trimStart())));
  });
});

describe('orderNumberFor', () => {
  it('derives one stable order number per command id', () => {
    expect(orderNumberFor('cmd_0mhx3k2a10123456789abcdef')).toBe('RD0MHX3K2A10123456789ABCDEF');
    expect(orderNumberFor('cmd_a')).not.toBe(orderNumberFor('cmd_b'));
  });
  it('never starts with the seed prefix (a sandbox reset keeps it as a money record)', () => {
    fc.assert(fc.property(fc.stringMatching(/^cmd_[0-9a-z]{9,30}$/), (id) => !orderNumberFor(id).startsWith('SBX')));
  });
});
