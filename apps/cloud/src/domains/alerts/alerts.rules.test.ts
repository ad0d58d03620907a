import { describe, expect, it } from 'vitest';
import { conditionRaised, conditionsCleared, notifyAt, parseClock } from './alerts.rules.ts';

const at = (iso: string) => Date.parse(iso);

describe('alert rules', () => {
  it('quiet hours across midnight push the notification to their end, in the rule’s time zone', () => {
    const quiet = { start: parseClock('22:00'), end: parseClock('06:30'), zone: 'America/New_York' };
    // 23:15 in New York (UTC-5 in November) is inside: notified at 06:30 local = 11:30Z
    expect(notifyAt(at('2026-11-21T04:15:00Z'), quiet)).toBe(at('2026-11-21T11:30:00Z'));
    // 05:00 local is inside too
    expect(notifyAt(at('2026-11-21T10:00:00Z'), quiet)).toBe(at('2026-11-21T11:30:00Z'));
    // 12:00 local is outside: at once
    expect(notifyAt(at('2026-11-21T17:00:00Z'), quiet)).toBe(at('2026-11-21T17:00:00Z'));
    // a window within a day
    expect(notifyAt(at('2026-11-21T12:10:00Z'), { start: parseClock('12:00'), end: parseClock('13:00'), zone: 'UTC' })).toBe(at('2026-11-21T13:00:00Z'));
    expect(notifyAt(at('2026-11-21T13:00:00Z'), { start: parseClock('12:00'), end: parseClock('13:00'), zone: 'UTC' })).toBe(at('2026-11-21T13:00:00Z'));
    expect(notifyAt(at('2026-11-21T12:10:00Z'), null)).toBe(at('2026-11-21T12:10:00Z'));
  });

  it('online clears the offline condition of the same machine only; a successful drop clears failed and expired drops', () => {
    const e = (type: 'machine.offline' | 'machine.online' | 'command.acknowledged' | 'aisle.out', machineNo: string, data = {}) => ({
      operatorId: 'op',
      type,
      machineNo,
      data,
    });
    expect(conditionRaised(e('machine.offline', 'M1'))).toBe('machine.offline:M1');
    expect(conditionsCleared(e('machine.online', 'M1'))).toEqual(['machine.offline:M1']);
    expect(conditionsCleared(e('command.acknowledged', 'M2'))).toEqual(['dispense.failed:M2', 'command.expired:M2']);
    expect(conditionRaised(e('aisle.out', 'M1', { aisleNo: 4 }))).toBe('aisle.out:M1:4');
    expect(conditionRaised(e('machine.online', 'M1'))).toBeNull();
  });
});
