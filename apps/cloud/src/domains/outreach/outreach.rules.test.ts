import { describe, expect, it } from 'vitest';
import { FREQUENCY_CAP, ineligibility, insideCallingWindow, isStopReply, localHour, pickChannel, scoreVenue } from './outreach.rules.ts';
import type { Channel } from './channels/channel.ts';

const at = (iso: string) => Date.parse(iso);
const ok = { address: 'x', configured: true, optedOut: false, recentTouches: 0 };

describe('outreach rules', () => {
  it('the calling window is 9:00–20:00 in the venue time zone, end exclusive', () => {
    // 13:59Z is 8:59 in New York (EST) and 13:59 in London
    expect(localHour(at('2026-11-20T13:59:00Z'), 'America/New_York')).toBe(8);
    expect(insideCallingWindow(at('2026-11-20T13:59:00Z'), 'America/New_York')).toBe(false);
    expect(insideCallingWindow(at('2026-11-20T14:00:00Z'), 'America/New_York')).toBe(true);
    expect(insideCallingWindow(at('2026-11-21T00:59:00Z'), 'America/New_York')).toBe(true);
    expect(insideCallingWindow(at('2026-11-21T01:00:00Z'), 'America/New_York')).toBe(false);
    expect(insideCallingWindow(at('2026-11-20T13:59:00Z'), 'Europe/London')).toBe(true);
  });

  it('voice and text need the window and room under the cap; e-mail needs neither', () => {
    const night = at('2026-11-20T03:00:00Z');
    expect(ineligibility('sms', ok, night, 'America/New_York')).toBe('outside_window');
    expect(ineligibility('voice', ok, night, 'America/New_York')).toBe('outside_window');
    expect(ineligibility('email', { ...ok, recentTouches: 99 }, night, 'America/New_York')).toBeNull();
    const day = at('2026-11-20T16:00:00Z');
    expect(ineligibility('sms', { ...ok, recentTouches: FREQUENCY_CAP.perChannel - 1 }, day, 'America/New_York')).toBeNull();
    expect(ineligibility('sms', { ...ok, recentTouches: FREQUENCY_CAP.perChannel }, day, 'America/New_York')).toBe('frequency_cap');
    expect(ineligibility('email', { ...ok, address: null }, day, 'UTC')).toBe('no_contact');
    expect(ineligibility('email', { ...ok, configured: false }, day, 'UTC')).toBe('not_configured');
    expect(ineligibility('email', { ...ok, optedOut: true }, day, 'UTC')).toBe('opted_out');
  });

  it('round-robin from the cursor, skipping channels that cannot carry the touch', () => {
    const order: Channel[] = ['email', 'sms', 'voice'];
    expect(pickChannel(order, 0, () => null)).toMatchObject({ channel: 'email', nextCursor: 1 });
    expect(pickChannel(order, 1, () => null)).toMatchObject({ channel: 'sms', nextCursor: 2 });
    expect(pickChannel(order, 2, () => null)).toMatchObject({ channel: 'voice', nextCursor: 0 });
    const smsOut = pickChannel(order, 1, (c) => (c === 'sms' ? 'opted_out' : null));
    expect(smsOut).toMatchObject({ channel: 'voice', nextCursor: 0, skipped: [{ channel: 'sms', reason: 'opted_out' }] });
    expect(pickChannel(order, 0, () => 'no_contact')).toMatchObject({ channel: null });
  });

  it('STOP and its carrier synonyms opt out; other replies do not', () => {
    for (const s of ['STOP', 'stop', ' Stop.', 'UNSUBSCRIBE me', 'quit']) expect(isStopReply(s), s).toBe(true);
    for (const s of ['yes', 'please do not stop', 'call me', '']) expect(isStopReply(s), s).toBe(false);
  });

  it('the shortlist score favours traffic for the tier, nearness, the vertical and reachability', () => {
    const v = { lat: 40.7, lng: -74, vertical: 'gym', dailyVisitors: 600, email: 'a@b.c', phone: null };
    const want = { tier: 'pro', near: { lat: 40.7, lng: -74 }, vertical: 'gym' };
    expect(scoreVenue(v, want).score).toBe(100);
    expect(scoreVenue({ ...v, dailyVisitors: 150 }, want).score).toBe(75);
    expect(scoreVenue({ ...v, email: null }, want).score).toBe(90);
    expect(scoreVenue(v, { ...want, vertical: 'school' }).score).toBe(90);
    expect(scoreVenue({ ...v, lat: 41.7 }, want).score).toBeLessThan(80);
  });
});
