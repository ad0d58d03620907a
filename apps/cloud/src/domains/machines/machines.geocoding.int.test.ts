import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { MachineView } from './machines.schemas.ts';
import { GatedGeocoder, freshSerial, startServerWithGeocoder } from './machines.factories.ts';
import { startFakeNominatim, type FakeNominatim } from './fake-nominatim.ts';
import { NominatimGeocoder } from './nominatim.ts';

const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };

async function registered(url: string, body: Record<string, unknown> = {}): Promise<MachineView> {
  return okData(await call<Body<MachineView>>(url, 'POST', '/api/v1/machines/register', { headers: alice, json: { machineNo: freshSerial('GEO'), ...body } }));
}

describe('Nominatim client against a local fake', () => {
  let fake: FakeNominatim;
  beforeAll(async () => {
    fake = await startFakeNominatim();
  });
  afterAll(async () => fake.close());

  it('resolves, finds nothing, reports 5xx and its own timeout, with the configured User-Agent', async () => {
    const g = new NominatimGeocoder({ url: fake.url, timeoutMs: 200, userAgent: 'vend-test/1 (ops@example.test)' });
    const signal = new AbortController().signal;
    expect(await g.geocode('1 Main St', signal)).toEqual({
      status: 'resolved',
      lat: 39.7817213,
      lng: -89.6501481,
      placeId: 'osm:W123456',
      formatted: '1 Main St, Springfield, United States',
    });
    expect(fake.requests.at(-1)).toEqual({
      path: '/search',
      params: { q: '1 Main St', format: 'jsonv2', limit: '1', addressdetails: '0' },
      userAgent: 'vend-test/1 (ops@example.test)',
    });
    expect(await g.geocode('nowhere lane', signal)).toEqual({ status: 'not_found' });
    expect(await g.geocode('boom road', signal)).toEqual({ status: 'provider_error', detail: 'geocoder answered HTTP 503' });
    const started = Date.now();
    expect(await g.geocode('hang street', signal)).toEqual({ status: 'provider_error', detail: 'geocoder did not answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an unreachable provider is a provider_error, not a throw', async () => {
    const g = new NominatimGeocoder({ url: 'http://127.0.0.1:1', timeoutMs: 1000, userAgent: 'ua' });
    expect(await g.geocode('1 Main St', new AbortController().signal)).toMatchObject({
      status: 'provider_error',
      detail: expect.stringContaining('unreachable'),
    });
  });
});

describe.each(DIALECTS)('geocoded placement on %s', (dialect) => {
  let fake: FakeNominatim;
  let t: TestServer;
  const patch = (no: string, json: unknown) => call<Body<MachineView>>(t.url, 'PATCH', `/api/v1/machines/${no}`, { headers: alice, json });
  const retry = (no: string, json?: unknown) =>
    call<Body<MachineView>>(t.url, 'POST', `/api/v1/machines/${no}/geocode/retry`, { headers: alice, ...(json !== undefined ? { json } : {}) });
  const row = (no: string) => t.ctx.database.db.selectFrom('machines').selectAll().where('machine_no', '=', no).executeTakeFirstOrThrow();

  beforeAll(async () => {
    fake = await startFakeNominatim();
    t = await startTestServer(dialect, { env: { GEOCODER_URL: fake.url, GEOCODER_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('rule 3: an address alone is geocoded; pin, placeId and the formatted label stored', async () => {
    const m = await registered(t.url, { location: 'Old label', lat: '1', lng: '1' });
    const r = await patch(m.machineNo, { address: '1 Main St' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      address: '1 Main St',
      location: '1 Main St, Springfield, United States',
      lat: '39.7817213',
      lng: '-89.6501481',
      placeId: 'osm:W123456',
    });
    expect(r.body.data.geo).toEqual({
      lat: 39.7817213,
      lng: -89.6501481,
      address: '1 Main St, Springfield, United States',
      placeId: 'osm:W123456',
      geocodeStatus: 'resolved',
      geocodeDetail: expect.stringContaining('Springfield'),
      geocodeRetryable: false,
    });
    expect(fake.requests.at(-1)?.userAgent).toBe('vend-cloud/0.1 (operator placement geocoding)');
    const audit = await t.ctx.database.db.selectFrom('audit_log').select('action').where('resource', '=', `machine:${m.machineNo}`).execute();
    expect(audit.map((a) => a.action)).toEqual(['machines.register', 'machines.update', 'machines.geocode']);
  });

  it('rule 3: an address with a location keeps the sent label; coordinates alone never call the geocoder', async () => {
    const m = await registered(t.url);
    fake.reply('2 Side St', { kind: 'found', osmType: 'node', osmId: 42, lat: '51.5', lon: '-0.12', displayName: 'Somewhere long' });
    const r = await patch(m.machineNo, { address: '2 Side St', location: 'Kiosk by gate 4' });
    expect(r.body.data).toMatchObject({ location: 'Kiosk by gate 4', placeId: 'osm:N42', lat: '51.5', lng: '-0.12' });
    const calls = fake.requests.length;
    const pinned = await patch(m.machineNo, { lat: '48.8584', lng: '2.2945' });
    expect(fake.requests.length).toBe(calls);
    expect(pinned.body.data).toMatchObject({ lat: '48.8584', lng: '2.2945', address: null, placeId: null, location: 'Kiosk by gate 4' });
    expect(pinned.body.data.geo).not.toHaveProperty('geocodeStatus');
  });

  it('rule 4: not found, a 5xx and a timeout all answer 200 with the address as typed, no pin and the outcome recorded', async () => {
    const cases = [
      { address: '1 nowhere lane', status: 'not_found', retryable: false, detail: /no match/ },
      { address: '5 boom road', status: 'provider_error', retryable: true, detail: /HTTP 503/ },
      { address: '9 hang street', status: 'provider_error', retryable: true, detail: /did not answer within 300 ms/ },
    ];
    for (const c of cases) {
      const m = await registered(t.url, { lat: '3', lng: '4' });
      const started = Date.now();
      const r = await patch(m.machineNo, { address: c.address, name: 'kept' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(r.status, c.address).toBe(200);
      expect(r.body.data).toMatchObject({ name: 'kept', address: c.address, location: c.address, lat: null, lng: null, placeId: null });
      expect(r.body.data.geo).toMatchObject({ lat: null, lng: null, placeId: null, geocodeStatus: c.status, geocodeRetryable: c.retryable });
      expect(r.body.data.geo.geocodeDetail).toMatch(c.detail);
    }
  });

  it('retry: 409 after not_found without a corrected address; a corrected address is geocoded', async () => {
    const m = await registered(t.url);
    await patch(m.machineNo, { address: '1 nowhere lane' });
    const refused = await retry(m.machineNo);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 409, message: expect.stringMatching(/corrected address/), data: null });
    expect((await retry(m.machineNo, { address: '1 nowhere lane' })).status).toBe(409);
    const fixed = await retry(m.machineNo, { address: '1 Somewhere Lane' });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({
      address: '1 Somewhere Lane',
      location: '1 Somewhere Lane, Springfield, United States',
      geo: { geocodeStatus: 'resolved' },
    });
  });

  it('retry after a provider error re-geocodes the stored address and replaces the label that was only the typed address', async () => {
    const m = await registered(t.url);
    fake.reply('7 Flaky Ave', { kind: 'status', status: 502 });
    const failed = await patch(m.machineNo, { address: '7 Flaky Ave' });
    expect(failed.body.data.geo).toMatchObject({ geocodeStatus: 'provider_error', geocodeRetryable: true });
    await t.ctx.database.db.updateTable('machines').set({ address_confirmed_at: 5 }).where('machine_no', '=', m.machineNo).execute();
    fake.reply('7 Flaky Ave', { kind: 'found', osmType: 'relation', osmId: 7, displayName: '7 Flaky Avenue, Shelbyville' });
    const r = await retry(m.machineNo);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      address: '7 Flaky Ave',
      location: '7 Flaky Avenue, Shelbyville',
      placeId: 'osm:R7',
      geo: { geocodeStatus: 'resolved' },
    });
    // re-asking about the same address is not a new placement: the confirmation stands
    expect((await row(m.machineNo)).address_confirmed_at).toBe(5);
  });

  it('retry keeps a label the operator sent with the address', async () => {
    const m = await registered(t.url);
    fake.reply('8 Flaky Ave', { kind: 'status', status: 500 });
    await patch(m.machineNo, { address: '8 Flaky Ave', location: 'Staff room' });
    fake.reply('8 Flaky Ave', { kind: 'found' });
    const r = await retry(m.machineNo);
    expect(r.body.data).toMatchObject({ location: 'Staff room', geo: { geocodeStatus: 'resolved' }, lat: '39.7817213' });
  });
});

describe.each(DIALECTS)('late geocoder answers on %s', (dialect) => {
  let s: Awaited<ReturnType<typeof startServerWithGeocoder>>;
  const geocoder = new GatedGeocoder();
  const patch = (no: string, json: unknown) => call<Body<MachineView>>(s.url, 'PATCH', `/api/v1/machines/${no}`, { headers: alice, json });
  beforeAll(async () => {
    s = await startServerWithGeocoder(dialect, geocoder);
  });
  afterAll(async () => s.close());

  it('rule 5: an answer for an address cannot overwrite coordinates set while it was in flight', async () => {
    const m = await registered(s.url);
    const slow = patch(m.machineNo, { address: '1 Slow Road' });
    const call1 = await geocoder.nextCall();
    expect(call1.address).toBe('1 Slow Road');
    const pinned = await patch(m.machineNo, { lat: '45.5', lng: '-73.5' });
    expect(pinned.status).toBe(200);
    call1.answer({ status: 'resolved', lat: 10, lng: 10, placeId: 'osm:N1', formatted: '1 Slow Road, Nowhere' });
    const late = await slow;
    expect(late.status).toBe(200);
    // the late request answers with the machine as it now stands: the newer pin
    expect(late.body.data).toMatchObject({ lat: '45.5', lng: '-73.5', address: null, placeId: null });
    expect(late.body.data.geo).not.toHaveProperty('geocodeStatus');
    const audit = await s.ctx.database.db.selectFrom('audit_log').select('action').where('resource', '=', `machine:${m.machineNo}`).execute();
    expect(audit.map((a) => a.action)).not.toContain('machines.geocode');
  });

  it('of two addresses in flight, the later one wins even when the earlier answer arrives last', async () => {
    const m = await registered(s.url);
    const first = patch(m.machineNo, { address: '1 First St' });
    const c1 = await geocoder.nextCall();
    const second = patch(m.machineNo, { address: '2 Second St' });
    const c2 = await geocoder.nextCall();
    expect([c1.address, c2.address]).toEqual(['1 First St', '2 Second St']);
    c2.answer({ status: 'resolved', lat: 22, lng: 22, placeId: 'osm:W2', formatted: '2 Second Street' });
    expect((await second).body.data).toMatchObject({ address: '2 Second St', lat: '22', placeId: 'osm:W2' });
    c1.answer({ status: 'resolved', lat: 11, lng: 11, placeId: 'osm:W1', formatted: '1 First Street' });
    expect((await first).body.data).toMatchObject({ address: '2 Second St', lat: '22', location: '2 Second Street' });
  });

  it('a geocoder that throws is recorded as provider_error, never a failed write', async () => {
    const m = await registered(s.url);
    const pending = patch(m.machineNo, { address: '3 Broken Way' });
    const c = await geocoder.nextCall();
    (c.answer as (r: never) => void)(Promise.reject(new Error('kaput')) as never);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.data.geo).toMatchObject({ geocodeStatus: 'provider_error', geocodeRetryable: true });
  });
});
