import { describe, expect, it } from 'vitest';
import type { SupplyRequest } from './supply.ts';
import { MAX_DISPLAY_AREAS, WireGetAdRequest, headFor, readAnswer, toWireRequest, usableUrl } from './vistar-wire.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const CREDS = { networkId: 'net-1', apiKey: 'key-1' };

function request(over: Partial<SupplyRequest> = {}): SupplyRequest {
  return {
    machineNo: 'SBX-ALICE-0001',
    maxFills: 3,
    slotSeconds: 15,
    screen: { width: 1080, height: 1920, lat: 52.52, lng: 13.405, venueCategoryId: 'retail.convenience_stores' },
    now: NOW,
    ...over,
  };
}

/** A valid ad as an SSP answers it; `over` replaces fields (undefined removes one). */
function ad(over: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    lease_id: 'lease-1',
    asset_url: 'https://cdn.ssp.example/a.png',
    mime_type: 'image/png',
    proof_of_play_url: 'https://ssp.example/pop/lease-1',
    lease_expiry: Math.floor(NOW / 1000) + 3600,
    net_cpm: 12,
    advertiser: 'Acme',
  };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

const read = (json: unknown, over: Partial<{ maxFills: number; now: number; base: string | null }> = {}) =>
  readAnswer(json, { maxFills: 3, now: NOW, base: 'https://ssp.example/api/v1/get_ad/json', ...over });

describe('toWireRequest', () => {
  it('asks for one ad per fill wanted, each a display area of the screen running exactly one slot', () => {
    const w = toWireRequest(request(), CREDS);
    expect(w).toMatchObject({
      network_id: 'net-1',
      api_key: 'key-1',
      device_id: 'SBX-ALICE-0001',
      venue_id: 'SBX-ALICE-0001',
      display_time: Math.floor(NOW / 1000),
      latitude: 52.52,
      longitude: 13.405,
      device_attribute: [{ name: 'venue_category', value: 'retail.convenience_stores' }],
    });
    expect(w.display_area.map((a) => a.id)).toEqual(['slot-1', 'slot-2', 'slot-3']);
    expect(w.display_area[0]).toEqual({
      id: 'slot-1',
      width: 1080,
      height: 1920,
      allow_audio: false,
      supported_media: ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'],
      min_duration: 15,
      max_duration: 15,
    });
    expect(WireGetAdRequest.safeParse(w).success).toBe(true);
  });

  it('assumes a 1080×1920 portrait panel without a screen, and leaves out geo and category it does not know', () => {
    const w = toWireRequest(request({ screen: null, maxFills: 1 }), CREDS);
    expect(w.display_area).toHaveLength(1);
    expect(w.display_area[0]).toMatchObject({ width: 1080, height: 1920 });
    expect(w).not.toHaveProperty('latitude');
    expect(w).not.toHaveProperty('longitude');
    expect(w).not.toHaveProperty('device_attribute');
    const half = toWireRequest(request({ screen: { width: 720, height: 1280, lat: 1, lng: null, venueCategoryId: null } }), CREDS);
    expect(half).not.toHaveProperty('latitude');
  });

  it('caps the display areas at the wire maximum', () => {
    expect(toWireRequest(request({ maxFills: 100 }), CREDS).display_area).toHaveLength(MAX_DISPLAY_AREAS);
  });
});

describe('WireGetAdRequest', () => {
  const valid = toWireRequest(request(), CREDS);

  it('strips fields it does not know and refuses repeated area ids and min above max duration', () => {
    const parsed = WireGetAdRequest.safeParse({ ...valid, extra: 1 });
    expect(parsed.success && 'extra' in parsed.data).toBe(false);
    expect(WireGetAdRequest.safeParse({ ...valid, display_area: [valid.display_area[0], valid.display_area[0]] }).success).toBe(false);
    expect(WireGetAdRequest.safeParse({ ...valid, display_area: [{ ...valid.display_area[0], min_duration: 20, max_duration: 10 }] }).success).toBe(false);
  });

  it('needs credentials, a device and at least one display area', () => {
    for (const key of ['network_id', 'api_key', 'device_id', 'display_area'] as const) {
      const { [key]: _, ...rest } = valid;
      expect(WireGetAdRequest.safeParse(rest).success, key).toBe(false);
    }
    expect(WireGetAdRequest.safeParse({ ...valid, display_area: [] }).success).toBe(false);
    expect(WireGetAdRequest.safeParse({ ...valid, device_id: 'a\u0000b' }).success).toBe(false);
    expect(WireGetAdRequest.safeParse({ ...valid, latitude: 91 }).success).toBe(false);
  });
});

describe('readAnswer', () => {
  it('maps an ad to a fill: lease, media, absolute URLs, net CPM in millis, expiry in ms, a sponsored head', () => {
    expect(read({ advertisement: [ad()] })).toEqual({
      ok: true,
      dropped: 0,
      fills: [
        {
          leaseId: 'lease-1',
          assetUrl: 'https://cdn.ssp.example/a.png',
          mediaType: 'image/png',
          popUrl: 'https://ssp.example/pop/lease-1',
          netCpmMillis: 12_000,
          expiresAt: (Math.floor(NOW / 1000) + 3600) * 1000,
          head: 'Sponsored · Acme',
        },
      ],
    });
  });

  it("takes Vistar's `id` for the lease, resolves relative URLs against the SSP and reads a missing CPM as 0", () => {
    const r = read({
      advertisement: [
        ad({
          lease_id: undefined,
          id: 'v-9',
          asset_url: '/media/x.mp4',
          mime_type: 'Video/MP4',
          proof_of_play_url: 'pop/v-9',
          net_cpm: undefined,
          advertiser: undefined,
        }),
      ],
    });
    expect(r.ok && r.fills[0]).toMatchObject({
      leaseId: 'v-9',
      assetUrl: 'https://ssp.example/media/x.mp4',
      mediaType: 'video/mp4',
      popUrl: 'https://ssp.example/api/v1/get_ad/pop/v-9',
      netCpmMillis: 0,
      head: 'Sponsored',
    });
  });

  it('answers at most maxFills and drops repeated leases', () => {
    const r = read({ advertisement: [ad(), ad(), ad({ lease_id: 'b' }), ad({ lease_id: 'c' }), ad({ lease_id: 'd' })] }, { maxFills: 2 });
    expect(r.ok && r.fills.map((f) => f.leaseId)).toEqual(['lease-1', 'b']);
    expect(r.ok && r.dropped).toBe(3);
  });

  it.each([
    ['an unplayable media type', { mime_type: 'application/x-shockwave-flash' }],
    ['a javascript: asset', { asset_url: 'javascript:alert(1)' }],
    ['a data: asset', { asset_url: 'data:image/png;base64,AAAA' }],
    ['a file: PoP URL', { proof_of_play_url: 'file:///etc/passwd' }],
    ['a URL with a control character', { asset_url: 'https://cdn.ssp.example/a\n.png' }],
    ['a URL over 2048 characters', { asset_url: `https://cdn.ssp.example/${'a'.repeat(2048)}` }],
    ['an expired lease', { lease_expiry: Math.floor(NOW / 1000) - 1 }],
    ['an expiry that is not a number', { lease_expiry: '1800000000' }],
    ['no lease id at all', { lease_id: undefined }],
    ['an empty lease id', { lease_id: '' }],
    ['a lease id with a NUL', { lease_id: 'a\u0000' }],
    ['a negative net CPM', { net_cpm: -1 }],
    ['no asset URL', { asset_url: undefined }],
  ])('drops an ad with %s', (_why, over) => {
    expect(read({ advertisement: [ad(over), ad({ lease_id: 'ok' })] })).toMatchObject({ ok: true, dropped: 1, fills: [{ leaseId: 'ok' }] });
  });

  it('keeps paths on this service only for the in-process mock (no base)', () => {
    const local = ad({ asset_url: '/ssp/mock/creative/1.png', proof_of_play_url: '/ssp/mock/pop/lease-1' });
    expect(read({ advertisement: [local] }, { base: null })).toMatchObject({
      ok: true,
      fills: [{ assetUrl: '/ssp/mock/creative/1.png', popUrl: '/ssp/mock/pop/lease-1' }],
    });
    expect(read({ advertisement: [ad({ asset_url: '//evil.example/x.png' })] }, { base: null })).toMatchObject({ ok: true, fills: [] });
  });

  it('reads no fill from an empty answer, and fails an answer that is not {advertisement: [...]}', () => {
    expect(read({})).toEqual({ ok: true, fills: [], dropped: 0 });
    expect(read({ advertisement: [] })).toEqual({ ok: true, fills: [], dropped: 0 });
    for (const junk of [null, 'ads', 42, [], [ad()], { advertisement: 'many' }, { advertisement: { 0: ad() } }]) {
      expect(read(junk).ok, JSON.stringify(junk)).toBe(false);
    }
  });
});

describe('usableUrl and headFor', () => {
  it('resolves against the base and keeps http(s) only', () => {
    expect(usableUrl('https://a.example/x', null)).toBe('https://a.example/x');
    expect(usableUrl('x.png', 'http://ssp.example/v1/get_ad/json')).toBe('http://ssp.example/v1/get_ad/x.png');
    expect(usableUrl('x.png', null)).toBeNull();
    expect(usableUrl('ftp://a.example/x', null)).toBeNull();
    expect(usableUrl('', null)).toBeNull();
  });

  it('writes a one-line caption of at most 80 characters of the advertiser', () => {
    expect(headFor('  Acme\n\tCola ')).toBe('Sponsored · Acme Cola');
    expect(headFor('\u0000\u0007')).toBe('Sponsored');
    expect(headFor('x'.repeat(200))).toBe(`Sponsored · ${'x'.repeat(80)}`);
    expect(headFor(`${'x'.repeat(79)}😀😀`)).toBe(`Sponsored · ${'x'.repeat(79)}😀`);
  });
});
