import { describe, expect, it } from 'vitest';
import { decideEnrolment, decideRegisterBinding, effectiveMode, readMode, type EnrolmentFacts } from './enrolment.rules.ts';

const base: EnrolmentFacts = { mode: 'open', credState: 'fleet-secret', binding: 'unbound', boundDeviceId: null, arm: null, presentedDeviceId: 'box-1' };

describe('enrolment modes (spec 2 §5 rule 4)', () => {
  it('reads open, armed and closed, and anything else as open', () => {
    expect(readMode('armed')).toBe('armed');
    expect(readMode('closed')).toBe('closed');
    expect(readMode('open')).toBe('open');
    for (const v of [null, undefined, '', 'CLOSED', 'locked', ' armed']) expect(readMode(v)).toBe('open');
  });

  it('the stricter of the fleet mode and a machine mode applies', () => {
    expect(effectiveMode('open', 'armed')).toBe('armed');
    expect(effectiveMode('closed', 'open')).toBe('closed');
    expect(effectiveMode('armed', null)).toBe('armed');
    expect(effectiveMode(null, undefined)).toBe('open');
    expect(effectiveMode('bogus', 'open')).toBe('open');
  });
});

describe('enrolment decision (spec 2 §3, §5, §7)', () => {
  const cases: [string, Partial<EnrolmentFacts>, ReturnType<typeof decideEnrolment>][] = [
    ['an open arm vouches', { arm: { deviceId: null } }, { ok: true, via: 'arm' }],
    ['an arm pinned to the presented box vouches', { arm: { deviceId: 'box-1' } }, { ok: true, via: 'arm' }],
    ['an arm pinned to another box does not (428)', { arm: { deviceId: 'box-2' } }, { ok: false, status: 428, reason: 'arm-pinned' }],
    ['a trusted binding to the presented box vouches in open mode', { binding: 'device-id', boundDeviceId: 'box-1' }, { ok: true, via: 'binding' }],
    [
      'a trusted binding does not vouch in armed mode (428)',
      { mode: 'armed', binding: 'device-id', boundDeviceId: 'box-1' },
      { ok: false, status: 428, reason: 'arm-required' },
    ],
    ['armed mode with an arm', { mode: 'armed', arm: { deviceId: null } }, { ok: true, via: 'arm' }],
    ['closed mode refuses even an armed cabinet (428)', { mode: 'closed', arm: { deviceId: null } }, { ok: false, status: 428, reason: 'closed' }],
    ['a self-asserted binding cannot vouch (428)', { binding: 'self-asserted', boundDeviceId: 'box-1' }, { ok: false, status: 428, reason: 'no-proof' }],
    ['nothing proves the claimant (428)', {}, { ok: false, status: 428, reason: 'no-proof' }],
    ['no deviceId and no arm (428)', { presentedDeviceId: null, binding: 'device-id', boundDeviceId: 'box-1' }, { ok: false, status: 428, reason: 'no-proof' }],
    [
      'another box presenting a trusted-bound serial is a conflict (409), arm or not',
      { binding: 'device-id', boundDeviceId: 'box-9', arm: { deviceId: null } },
      { ok: false, status: 409, reason: 'identity-conflict' },
    ],
    [
      'another box presenting a self-asserted serial without an arm is a conflict (409)',
      { binding: 'self-asserted', boundDeviceId: 'box-9' },
      { ok: false, status: 409, reason: 'identity-conflict' },
    ],
    [
      'an arm overrides a merely self-asserted binding',
      { binding: 'self-asserted', boundDeviceId: 'box-9', arm: { deviceId: null } },
      { ok: true, via: 'arm' },
    ],
    [
      'a second enrolment for one identity (agent state loss) is 409',
      { credState: 'enrolled', arm: { deviceId: null } },
      { ok: false, status: 409, reason: 'already-enrolled' },
    ],
    ['a revoked identity stays revoked (403)', { credState: 'revoked', arm: { deviceId: null } }, { ok: false, status: 403, reason: 'revoked' }],
  ];
  it.each(cases)('%s', (_name, facts, verdict) => {
    expect(decideEnrolment({ ...base, ...facts })).toEqual(verdict);
  });
});

describe('register binding', () => {
  it('binds an unbound serial, keeps the bound box, refuses another', () => {
    expect(decideRegisterBinding('unbound', null, 'box-1')).toBe('bind');
    expect(decideRegisterBinding('self-asserted', 'box-1', 'box-1')).toBe('keep');
    expect(decideRegisterBinding('device-id', 'box-1', 'box-2')).toBe('conflict');
    expect(decideRegisterBinding('self-asserted', 'box-1', 'box-2')).toBe('conflict');
    expect(decideRegisterBinding('device-id', 'box-1', null)).toBe('keep');
  });
});
