import { describe, expect, it } from 'vitest';
import { parseInput } from '../../http/validate.ts';
import type { ScreenRecord } from '../machines/machines.repo.ts';
import { ScreenBody } from '../machines/screen.schemas.ts';
import { screenBody } from '../machines/screen.test-support.ts';
import { openHoursPerWeek, SCREEN_OFFLINE_AFTER_MS, toDoohScreen } from './dooh-inventory.service.ts';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const block = (over: Record<string, unknown> = {}) => parseInput(ScreenBody, screenBody(over), 'body');
const record = (over: Partial<ScreenRecord> = {}, screen = block()): ScreenRecord => ({
  machine_no: 'SBX-ALICE-0001',
  name: 'Penn kiosk',
  status: 'online',
  last_seen: NOW - 60_000,
  lat: 40.75,
  lng: -73.99,
  time_zone: 'America/New_York',
  screen_json: JSON.stringify(screen),
  operator_email: 'alice@example.test',
  ...over,
});

describe('a screen as the DOOH export shows it', () => {
  it('carries the OpenOOH category with its name, path and the AdCOM taxonomy id, the loop and spot lengths', () => {
    const s = toDoohScreen(record({}, block({ loop: { slots: 6, slotSeconds: 10 }, impressionsPerPlay: 3 })), NOW, false)!;
    expect(s).toMatchObject({
      screenId: 'SBX-ALICE-0001',
      machineNo: 'SBX-ALICE-0001',
      status: 'online',
      lastSeen: '2026-11-20T11:59:00.000+0000',
      venue: {
        name: 'Penn Station Concourse',
        category: {
          taxonomy: 'OpenOOH Venue Taxonomy',
          version: '1.1',
          adcomTaxonomyId: 5,
          id: 10602,
          name: 'Platform',
          fullName: 'Transit / Train Stations / Platform',
          idPath: [1, 106, 10602],
        },
      },
      timeZone: 'America/New_York',
      resolution: { width: 1080, height: 1920 },
      orientation: 'portrait',
      loop: { slots: 6, slotSeconds: 10, loopSeconds: 60, playsPerHour: 60 },
      impressionsPerPlay: 3,
      minSpotSeconds: 5,
      maxSpotSeconds: 10,
      mediaTypes: ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'],
      openHoursPerWeek: 168,
    });
    expect(s).not.toHaveProperty('operatorEmail');
    expect(toDoohScreen(record(), NOW, true)?.operatorEmail).toBe('alice@example.test');
  });

  it('takes the screen’s own geo, else the placement, else none', () => {
    expect(toDoohScreen(record({}, block({ geo: { lat: 1.5, lng: 2.5 } })), NOW, false)?.geo).toEqual({ lat: 1.5, lng: 2.5, source: 'screen' });
    expect(toDoohScreen(record(), NOW, false)?.geo).toEqual({ lat: 40.75, lng: -73.99, source: 'placement' });
    expect(toDoohScreen(record({ lat: null, lng: null }), NOW, false)?.geo).toBeNull();
    expect(toDoohScreen(record({ lat: 0, lng: 0 }), NOW, false)?.geo).toBeNull();
  });

  it('is offline when the machine says so or was unseen for more than 10 minutes', () => {
    expect(toDoohScreen(record({ last_seen: NOW - SCREEN_OFFLINE_AFTER_MS }), NOW, false)?.status).toBe('online');
    expect(toDoohScreen(record({ last_seen: NOW - SCREEN_OFFLINE_AFTER_MS - 1 }), NOW, false)?.status).toBe('offline');
    expect(toDoohScreen(record({ last_seen: null }), NOW, false)?.status).toBe('offline');
    expect(toDoohScreen(record({ status: 'offline' }), NOW, false)?.status).toBe('offline');
  });

  it('names the orientation from the resolution, and skips a record whose block is unreadable', () => {
    expect(toDoohScreen(record({}, block({ resolution: { width: 1920, height: 1080 } })), NOW, false)?.orientation).toBe('landscape');
    expect(toDoohScreen(record({}, block({ resolution: { width: 1080, height: 1080 } })), NOW, false)?.orientation).toBe('square');
    expect(toDoohScreen(record({ screen_json: '{oops' }), NOW, false)).toBeNull();
  });

  it('counts open hours in a week, overnight intervals up to their close', () => {
    expect(openHoursPerWeek(null)).toBe(168);
    const hours = block({
      operatingHours: { mon: [{ open: '09:00', close: '17:30' }], fri: [{ open: '22:00', close: '02:00' }], sun: [{ open: '00:00', close: '24:00' }] },
    }).operatingHours;
    expect(openHoursPerWeek(hours)).toBe(8.5 + 4 + 24);
  });
});
