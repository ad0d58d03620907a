import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from '../../http/errors.ts';
import { NOT_FOUND_DETAIL, SKIPPED_DETAIL, formatDegrees, geocodeColumns, geocodeView, planPlacement, type PlacementState } from './placement.ts';

const geocoded: PlacementState = {
  location: 'Empire State Building, 350 5th Ave',
  lat: 40.7484,
  lng: -73.9857,
  address: '350 5th Ave',
  place_id: 'osm:W34633854',
};
const pinned: PlacementState = { location: 'Lobby', lat: 51.5, lng: -0.12, address: null, place_id: null };

/** The refusal a rule throws, as `{status, message}` with the message the client reads. */
function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, message: [e.message, ...(e.options.issues ?? []).map((i) => `${i.path}: ${i.message}`)].join(': ') };
  }
  throw new Error('expected a refusal');
}

describe('placement rules 1–2: what a request may combine', () => {
  it('refuses lat without lng and lng without lat, naming which one came', () => {
    const a = refusal(() => planPlacement(pinned, { lat: 1 }));
    expect(a.status).toBe(400);
    expect(a.message).toBe('Bad request — invalid or missing parameters: body.lng: lat and lng must be sent together (got only lat)');
    expect(refusal(() => planPlacement(pinned, { lng: 1 })).message).toContain('got only lng');
  });
  it('refuses 0,0 but accepts the equator and the prime meridian alone', () => {
    expect(refusal(() => planPlacement(pinned, { lat: 0, lng: 0 })).message).toContain('0,0');
    expect(planPlacement(pinned, { lat: 0, lng: 5 }).kind).toBe('pin');
    expect(planPlacement(pinned, { lat: 5, lng: 0 }).kind).toBe('pin');
  });
  it('refuses an address together with coordinates', () => {
    const e = refusal(() => planPlacement(pinned, { lat: 1, lng: 2, address: 'x' }));
    expect(e.status).toBe(400);
    expect(e.message).toContain('not both');
  });
  it('accepts placeId only with coordinates', () => {
    expect(refusal(() => planPlacement(pinned, { placeId: 'osm:N1' })).message).toContain('placeId');
    expect(refusal(() => planPlacement(pinned, { placeId: 'osm:N1', address: 'x' })).message).toContain('placeId');
    expect(planPlacement(pinned, { placeId: 'osm:N1', lat: 1, lng: 2 })).toMatchObject({ kind: 'pin', columns: { place_id: 'osm:N1' } });
  });
});

describe('placement rules 3 and 5: what a change clears', () => {
  it('new coordinates: no geocoding; the address label and geocoder evidence go, the display label stays', () => {
    const plan = planPlacement(geocoded, { lat: 40.1, lng: -73.1 });
    expect(plan).toEqual({
      kind: 'pin',
      columns: { lat: 40.1, lng: -73.1, place_id: null, address: null, geocode_status: null, geocode_detail: null, location: geocoded.location },
    });
  });
  it('a new location label clears the earlier pin and its evidence', () => {
    expect(planPlacement(geocoded, { location: 'Second floor' })).toEqual({
      kind: 'label',
      columns: { location: 'Second floor', lat: null, lng: null, place_id: null, address: null, geocode_status: null, geocode_detail: null },
    });
  });
  it('a label sent with coordinates is the new placement: both kept', () => {
    expect(planPlacement(geocoded, { location: 'Gate 4', lat: 1, lng: 2 })).toMatchObject({ kind: 'pin', columns: { location: 'Gate 4', lat: 1, lng: 2 } });
  });
  it('an address alone is geocoded: stored as typed, pin cleared, label = the address until the geocoder answers', () => {
    expect(planPlacement(pinned, { address: '1 Main St' })).toEqual({
      kind: 'address',
      address: '1 Main St',
      labelSent: false,
      columns: { address: '1 Main St', location: '1 Main St', lat: null, lng: null, place_id: null, geocode_status: null, geocode_detail: null },
    });
  });
  it('an address with a label keeps the label', () => {
    expect(planPlacement(pinned, { address: '1 Main St', location: 'Kiosk A' })).toMatchObject({
      kind: 'address',
      labelSent: true,
      columns: { location: 'Kiosk A' },
    });
  });
  it('values equal to the stored ones are not a change (a form that re-sends everything clears nothing)', () => {
    expect(planPlacement(geocoded, { location: geocoded.location, address: geocoded.address! })).toEqual({ kind: 'none' });
    expect(planPlacement(pinned, { lat: pinned.lat!, lng: pinned.lng!, location: 'Lobby' })).toEqual({ kind: 'none' });
    expect(planPlacement(pinned, {})).toEqual({ kind: 'none' });
  });
  it('the same address with a new label is a new address placement', () => {
    expect(planPlacement(geocoded, { address: geocoded.address!, location: 'New label' }).kind).toBe('address');
  });
  it('any accepted pair of degrees yields a pin with exactly those coordinates', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => {
        fc.pre(!(lat === 0 && lng === 0) && (lat !== pinned.lat || lng !== pinned.lng));
        const plan = planPlacement(pinned, { lat, lng });
        expect(plan.kind).toBe('pin');
        if (plan.kind === 'pin') expect([plan.columns.lat, plan.columns.lng, plan.columns.address]).toEqual([lat, lng, null]);
      }),
    );
  });
});

describe('placement rule 4: recording geocoder outcomes', () => {
  it('resolved: pin, placeId and the formatted address as label unless the label was sent', () => {
    const r = { status: 'resolved', lat: 1.5, lng: 2.5, placeId: 'osm:N9', formatted: 'Somewhere, Earth' } as const;
    expect(geocodeColumns(r, false)).toMatchObject({ lat: 1.5, lng: 2.5, place_id: 'osm:N9', geocode_status: 'resolved', location: 'Somewhere, Earth' });
    expect(geocodeColumns(r, true)).not.toHaveProperty('location');
  });
  it('a formatted address longer than the label limit is cut to 255 characters', () => {
    const cols = geocodeColumns({ status: 'resolved', lat: 1, lng: 1, placeId: null, formatted: 'x'.repeat(400) }, false);
    expect(cols.location).toHaveLength(255);
  });
  it('problems leave no pin and say what happened', () => {
    expect(geocodeColumns({ status: 'not_found' }, false)).toEqual({
      lat: null,
      lng: null,
      place_id: null,
      geocode_status: 'not_found',
      geocode_detail: NOT_FOUND_DETAIL,
    });
    expect(geocodeColumns({ status: 'provider_error', detail: 'HTTP 503' }, false)).toMatchObject({
      geocode_status: 'provider_error',
      geocode_detail: expect.stringContaining('HTTP 503'),
    });
    expect(geocodeColumns({ status: 'skipped' }, false)).toMatchObject({ geocode_status: 'skipped', geocode_detail: SKIPPED_DETAIL });
    expect(SKIPPED_DETAIL).toMatch(/not configured on this deployment/);
  });
  it('geo view: absent when never geocoded, retryable only for provider_error and skipped', () => {
    expect(geocodeView(null, null)).toEqual({});
    expect(geocodeView('resolved', 'x')).toEqual({ geocodeStatus: 'resolved', geocodeDetail: 'x', geocodeRetryable: false });
    expect(geocodeView('not_found', 'x').geocodeRetryable).toBe(false);
    expect(geocodeView('provider_error', 'x').geocodeRetryable).toBe(true);
    expect(geocodeView('skipped', 'x').geocodeRetryable).toBe(true);
  });
});

describe('degrees as strings', () => {
  it('are plain decimals without exponent or trailing zeros', () => {
    expect(formatDegrees(40.7506)).toBe('40.7506');
    expect(formatDegrees(-73.9935)).toBe('-73.9935');
    expect(formatDegrees(1e-7)).toBe('0.0000001');
    expect(formatDegrees(-0)).toBe('0');
    expect(formatDegrees(180)).toBe('180');
    expect(formatDegrees(null)).toBeNull();
  });
  it('round-trip every value with at most ten decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -180e6, max: 180e6 }), fc.integer({ min: 0, max: 9999 }), (micro, extra) => {
        const n = Number(`${(micro / 1e6).toFixed(6)}${String(extra).padStart(4, '0')}`);
        const s = formatDegrees(n)!;
        expect(s).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(s)).toBe(n);
      }),
    );
  });
});
