import { describe, expect, it } from 'vitest';
import { parseInput } from '../../http/validate.ts';
import { AppError } from '../../http/errors.ts';
import { childrenOf, VENUE_TYPES, venueTypeById } from './openooh-venues.ts';
import { ScreenBody, type ScreenInput } from './screen.schemas.ts';
import { checkHours, isCountryCode, normalizeCity, normalizePostalCode } from './screen.rules.ts';
import { screenBody } from './screen.test-support.ts';
import { impressionsPerPlayOf, loopShapeOf, screenInCity, screenInPostalCodes, screenOf } from './screen.ts';

const minimalScreen = () => screenBody();

const parse = (body: unknown): ScreenInput => parseInput(ScreenBody, body, 'body');

/** The status and message parseInput refuses `body` with. */
function refusal(body: unknown): { status: number; text: string } {
  try {
    parse(body);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, text: `${e.message} ${(e.options.issues ?? []).map((i) => `${i.path}: ${i.message}`).join('; ')}` };
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

const withHours = (operatingHours: unknown) => ({ ...minimalScreen(), operatingHours });

describe('the screen block body', () => {
  it('fills the documented defaults: loop 8 × 15 s, 1 impression per play, no geo, always open', () => {
    const s = parse(minimalScreen());
    expect(s).toEqual({
      ...minimalScreen(),
      address: { line1: '7th Ave & 32nd St', line2: null, city: 'New York', region: null, postalCode: null, country: 'US' },
      geo: null,
      operatingHours: null,
      loop: { slots: 8, slotSeconds: 15 },
      impressionsPerPlay: 1,
    });
    expect(parse({ ...minimalScreen(), loop: { slots: 4 } }).loop).toEqual({ slots: 4, slotSeconds: 15 });
  });

  it('normalises text: trimmed, city spaces collapsed, postal code uppercased, country uppercased, empty optional text is null', () => {
    const s = parse({
      ...minimalScreen(),
      venueName: '  Lobby  ',
      address: { line1: ' 1 Main St ', line2: '  ', city: '  Saint   Paul ', region: 'MN', postalCode: ' sw1a  1aa ', country: 'gb' },
    });
    expect(s.venueName).toBe('Lobby');
    expect(s.address).toEqual({ line1: '1 Main St', line2: null, city: 'Saint Paul', region: 'MN', postalCode: 'SW1A 1AA', country: 'GB' });
  });

  it('answers 422 for wrong types and 400 for values out of rule', () => {
    expect(refusal({ ...minimalScreen(), panel: { diagonalInches: '32' } }).status).toBe(422);
    expect(refusal({ ...minimalScreen(), resolution: { width: 1080.5, height: 1920 } }).status).toBe(422);
    expect(refusal({ ...minimalScreen(), venueCategoryId: '10602' }).status).toBe(422);
    expect(refusal({ ...minimalScreen(), operatingHours: { mon: 'all day' } }).status).toBe(422);
    expect(refusal({ ...minimalScreen(), address: 'somewhere' }).status).toBe(422);
    const { venueName: _, ...noName } = minimalScreen();
    expect(refusal(noName).status).toBe(400);
    for (const bad of [
      { loop: { slots: 0 } },
      { loop: { slots: 25 } },
      { loop: { slotSeconds: 4 } },
      { loop: { slotSeconds: 61 } },
      { impressionsPerPlay: -1 },
      { impressionsPerPlay: 1.005 },
      { panel: { diagonalInches: 2 } },
      { resolution: { width: 100, height: 1920 } },
      { venueName: '' },
      { venueName: 'x'.repeat(101) },
      { venueName: 'a\u0000b' },
      { geo: { lat: 91, lng: 0 } },
      { geo: { lat: 0, lng: 0 } },
      { address: { line1: 'x', city: 'y', country: 'UK' } },
      { address: { line1: 'x', city: 'y', country: 'USA' } },
      { address: { line1: 'x', city: 'y', country: 'US', postalCode: '10001!' } },
      { address: { line1: 'x', city: '', country: 'US' } },
      { extra: true },
    ]) {
      expect(refusal({ ...minimalScreen(), ...bad }).status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('validates venueCategoryId against the OpenOOH taxonomy, naming the id', () => {
    expect(parse({ ...minimalScreen(), venueCategoryId: 202 }).venueCategoryId).toBe(202);
    const unknown = refusal({ ...minimalScreen(), venueCategoryId: 999 });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/venueCategoryId 999 is not an OpenOOH 1\.1 venue type/);
    // OpenOOH: no screen is assigned to a parent type that has children
    const parent = refusal({ ...minimalScreen(), venueCategoryId: 2 });
    expect(parent.status).toBe(400);
    expect(parent.text).toMatch(/venueCategoryId 2 \(Retail\) is a parent category.*201 Fueling Stations/);
  });
});

describe('operating hours', () => {
  it('accepts same-day, overnight and whole-day intervals and sorts each day, listing every day', () => {
    const s = parse(
      withHours({
        mon: [
          { open: '17:00', close: '22:00' },
          { open: '07:00', close: '12:00' },
        ],
        fri: [{ open: '18:00', close: '02:00' }],
        sat: [{ open: '02:00', close: '24:00' }],
        sun: [{ open: '00:00', close: '24:00' }],
      }),
    );
    expect(s.operatingHours).toEqual({
      mon: [
        { open: '07:00', close: '12:00' },
        { open: '17:00', close: '22:00' },
      ],
      tue: [],
      wed: [],
      thu: [],
      fri: [{ open: '18:00', close: '02:00' }],
      sat: [{ open: '02:00', close: '24:00' }],
      sun: [{ open: '00:00', close: '24:00' }],
    });
  });

  it('refuses with 400: open equal to close, overlaps (overnight ones and Sunday into Monday too), a week never open, bad times', () => {
    const cases: [unknown, RegExp][] = [
      [{ mon: [{ open: '09:00', close: '09:00' }] }, /close must differ from open/],
      [
        {
          mon: [
            { open: '09:00', close: '13:00' },
            { open: '12:00', close: '18:00' },
          ],
        },
        /mon 09:00–13:00 overlaps mon 12:00–18:00/,
      ],
      [{ fri: [{ open: '22:00', close: '03:00' }], sat: [{ open: '02:00', close: '10:00' }] }, /fri 22:00–03:00 overlaps sat 02:00–10:00/],
      [{ sun: [{ open: '20:00', close: '06:00' }], mon: [{ open: '05:00', close: '09:00' }] }, /sun 20:00–06:00 overlaps mon 05:00–09:00/],
      [{}, /must open on at least one day/],
      [{ mon: [] }, /must open on at least one day/],
      [{ mon: [{ open: '24:00', close: '10:00' }] }, /open must be a time/],
      [{ mon: [{ open: '9:00', close: '10:00' }] }, /open must be a time/],
      [{ mon: [{ open: '09:00', close: '24:30' }] }, /close must be a time/],
      [{ monday: [{ open: '09:00', close: '10:00' }] }, /Unrecognized key/],
      [{ mon: Array.from({ length: 5 }, (_, i) => ({ open: `0${i}:00`, close: `0${i}:30` })) }, /at most 4/],
    ];
    for (const [hours, why] of cases) {
      const r = refusal(withHours(hours));
      expect(r.status, JSON.stringify(hours)).toBe(400);
      expect(r.text, JSON.stringify(hours)).toMatch(why);
    }
  });

  it('lets intervals touch without overlapping', () => {
    expect(checkHours({ mon: [{ open: '18:00', close: '24:00' }], tue: [{ open: '00:00', close: '02:00' }] })).toEqual([]);
    expect(checkHours({ sun: [{ open: '20:00', close: '06:00' }], mon: [{ open: '06:00', close: '09:00' }] })).toEqual([]);
  });
});

describe('the OpenOOH taxonomy', () => {
  it('holds the 1.1 tree: 11 parents, their children and grandchildren with unique ids', () => {
    expect(VENUE_TYPES.filter((v) => v.tier === 'parent').map((v) => v.name)).toEqual([
      'Transit',
      'Retail',
      'Outdoor',
      'Health & Beauty',
      'Point of Care',
      'Education',
      'Office Buildings',
      'Leisure',
      'Government',
      'Financial',
      'Residential',
    ]);
    expect(new Set(VENUE_TYPES.map((v) => v.id)).size).toBe(VENUE_TYPES.length);
    for (const v of VENUE_TYPES) {
      // ids nest: a child is its parent's id × 100 + n
      if (v.parentId !== null) expect(Math.floor(v.id / 100)).toBe(v.parentId);
    }
  });

  it('looks types up by id with their path and full name', () => {
    expect(venueTypeById(20302)).toMatchObject({
      name: 'Check Out',
      tier: 'grandchild',
      parentId: 203,
      idPath: [2, 203, 20302],
      fullName: 'Retail / Grocery / Check Out',
    });
    expect(venueTypeById(202)).toMatchObject({ name: 'Convenience Stores', tier: 'child', hasChildren: false, fullName: 'Retail / Convenience Stores' });
    expect(venueTypeById(40101)?.slug).toBe('health_beauty.gyms.lobby');
    expect(venueTypeById(999)).toBeUndefined();
    expect(childrenOf(10).map((v) => v.id)).toEqual([1001]);
  });
});

describe('what other domains read', () => {
  const block = parse({
    ...minimalScreen(),
    loop: { slots: 6, slotSeconds: 10 },
    impressionsPerPlay: 2.5,
    address: { line1: 'x', city: 'New  York', postalCode: '10001', country: 'US' },
  });

  it('screenOf reads the stored block, and null for none or anything that is not a block', () => {
    expect(screenOf({ screen_json: JSON.stringify(block) })).toEqual(block);
    for (const bad of [null, '{oops', '[1]', 'null', JSON.stringify({ panel: '32in' }), JSON.stringify({ ...block, loop: { slots: '8' } })]) {
      expect(screenOf({ screen_json: bad })).toBeNull();
    }
  });

  it('loop shape and impressions per play: the block’s own, else 8 × 15 s and 1', () => {
    expect(loopShapeOf(block)).toEqual({ slots: 6, slotSeconds: 10 });
    expect(loopShapeOf(null)).toEqual({ slots: 8, slotSeconds: 15 });
    expect(impressionsPerPlayOf(block)).toBe(2.5);
    expect(impressionsPerPlayOf(null)).toBe(1);
    expect(impressionsPerPlayOf(parse({ ...minimalScreen(), impressionsPerPlay: 0 }))).toBe(0);
  });

  it('matches city case-insensitively and postal codes as normalised', () => {
    expect(screenInCity(block, ' new york ')).toBe(true);
    expect(screenInCity(block, 'Newark')).toBe(false);
    expect(screenInCity(null, 'New York')).toBe(false);
    expect(screenInPostalCodes(block, ['94107', ' 10001 '])).toBe(true);
    expect(screenInPostalCodes(block, ['1000'])).toBe(false);
    expect(screenInPostalCodes(parse(minimalScreen()), ['10001'])).toBe(false);
    expect(normalizePostalCode(' ec1a  1bb')).toBe('EC1A 1BB');
    expect(normalizeCity('Zu\u0308rich')).toBe('Z\u00fcrich');
    expect(isCountryCode('GB') && !isCountryCode('UK') && !isCountryCode('gb')).toBe(true);
  });
});
