import { describe, expect, it } from 'vitest';
import { INVITE_TTL_MS, canManage, inviteStateAt, leavesNoOwner, mayAssign, mayRemove } from './crews.rules.ts';

describe('crew roles', () => {
  it('owners and admins manage; members do not', () => {
    expect([canManage('owner'), canManage('admin'), canManage('member')]).toEqual([true, true, false]);
  });

  it('only an owner grants or takes away the owner role', () => {
    expect(mayAssign('owner', 'member', 'owner')).toBe(true);
    expect(mayAssign('owner', 'owner', 'member')).toBe(true);
    expect(mayAssign('admin', 'member', 'admin')).toBe(true);
    expect(mayAssign('admin', null, 'member')).toBe(true);
    expect(mayAssign('admin', 'member', 'owner')).toBe(false);
    expect(mayAssign('admin', 'owner', 'member')).toBe(false);
    expect(mayAssign('member', 'member', 'member')).toBe(false);
  });

  it('anyone may leave; owners remove anyone; admins remove admins and members; members nobody', () => {
    expect(mayRemove('member', 'member', true)).toBe(true);
    expect(mayRemove('member', 'member', false)).toBe(false);
    expect(mayRemove('admin', 'admin', false)).toBe(true);
    expect(mayRemove('admin', 'owner', false)).toBe(false);
    expect(mayRemove('owner', 'owner', false)).toBe(true);
  });

  it('the last owner cannot be demoted or removed; one of two can', () => {
    expect(leavesNoOwner(1, 'owner', 'admin')).toBe(true);
    expect(leavesNoOwner(1, 'owner', null)).toBe(true);
    expect(leavesNoOwner(1, 'owner', 'owner')).toBe(false);
    expect(leavesNoOwner(2, 'owner', null)).toBe(false);
    expect(leavesNoOwner(1, 'admin', null)).toBe(false);
  });
});

describe('invitation state', () => {
  it('a pending invitation expires exactly at expires_at; other states stay', () => {
    const at = 1_000 + INVITE_TTL_MS;
    expect(inviteStateAt('pending', at, at - 1)).toBe('pending');
    expect(inviteStateAt('pending', at, at)).toBe('expired');
    expect(inviteStateAt('accepted', at, at + 1)).toBe('accepted');
    expect(inviteStateAt('revoked', at, at + 1)).toBe('revoked');
    expect(INVITE_TTL_MS).toBe(7 * 24 * 3600 * 1000);
  });
});
