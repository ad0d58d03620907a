import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import type { ManualClock } from '@vend/protocol';
import { freshSerial, snapshot } from './machines.factories.ts';
import { admin, alice, machinesApi } from './machines.test-support.ts';

describe.each(DIALECTS)('machines API: editing and placement on %s', (dialect) => {
  let t: TestServer;
  const { db, api, register, patch, row } = machinesApi(() => t);

  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  describe('PATCH /machines/:machineNo', () => {
    it('changes only the sent fields, via PATCH and its PUT alias, audited', async () => {
      const m = await register(alice, { name: 'Before', location: 'Hall', lat: '10.5', lng: '20.5' });
      const r = await patch(m.machineNo, alice, { name: 'After', notes: 'by the stairs' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ name: 'After', notes: 'by the stairs', location: 'Hall', lat: '10.5', lng: '20.5' });
      const p = await api('PUT', `/api/v1/machines/${m.machineNo}`, alice, { notes: null });
      expect(p.body.data).toMatchObject({ name: 'After', notes: null });
      const audit = await db().selectFrom('audit_log').select('action').where('resource', '=', `machine:${m.machineNo}`).execute();
      expect(audit.map((a) => a.action)).toEqual(['machines.register', 'machines.update', 'machines.update']);
    });

    it('refuses an empty body, unknown fields and wrong JSON types', async () => {
      const m = await register(alice);
      expectRefused(await patch(m.machineNo, alice, {}), 400, /at least one field/);
      expectRefused(await patch(m.machineNo, alice, { status: 'online' }), 400, /status/);
      expectRefused(await patch(m.machineNo, alice, { name: 7 }), 422, /body\.name/);
      expectRefused(await patch(m.machineNo, alice, { lat: 1.5, lng: 2.5 }), 422, /body\.lat/);
      expectRefused(await patch(m.machineNo, alice, ['name']), 422);
      expectRefused(
        await call(t.url, 'PATCH', `/api/v1/machines/${m.machineNo}`, { headers: { ...alice, 'content-type': 'application/json' }, body: '{"name":' }),
        400,
        /not valid JSON/,
      );
    });

    it('rule 1: lat and lng together; non-finite, out-of-range and 0,0 refused', async () => {
      const m = await register(alice, { lat: '1', lng: '1' });
      const before = await snapshot(db());
      expectRefused(await patch(m.machineNo, alice, { lat: '12.5' }), 400, 'lat and lng must be sent together (got only lat)');
      expectRefused(await patch(m.machineNo, alice, { lng: '12.5', name: 'x' }), 400, /got only lng/);
      for (const [lat, lng] of [
        ['NaN', '1'],
        ['Infinity', '1'],
        ['1', '-Infinity'],
        ['90.5', '1'],
        ['1', '180.01'],
        ['1e1', '1'],
      ]) {
        expectRefused(await patch(m.machineNo, alice, { lat, lng }), 400, /decimal degrees/);
      }
      expectRefused(await patch(m.machineNo, alice, { lat: '0', lng: '-0.0' }), 400, /0,0/);
      expect(await snapshot(db())).toBe(before);
      const ok = await patch(m.machineNo, alice, { lat: '-90', lng: '180' });
      expect(ok.body.data).toMatchObject({ lat: '-90', lng: '180', geo: { lat: -90, lng: 180 } });
    });

    it('rule 2: an address together with coordinates is refused', async () => {
      const m = await register(alice);
      const before = await snapshot(db());
      expectRefused(await patch(m.machineNo, alice, { address: '1 Main St', lat: '1', lng: '2' }), 400, /either address or lat\/lng/);
      expect(await snapshot(db())).toBe(before);
    });

    it('rule 4 without a geocoder: 200, address stored as typed, no pin, geocodeStatus skipped and retryable', async () => {
      const m = await register(alice, { lat: '5', lng: '5' });
      const r = await patch(m.machineNo, alice, { address: '  742 Evergreen Terrace  ' });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ address: '742 Evergreen Terrace', lat: null, lng: null, placeId: null, location: '742 Evergreen Terrace' });
      expect(r.body.data.geo).toEqual({
        lat: null,
        lng: null,
        address: '742 Evergreen Terrace',
        placeId: null,
        geocodeStatus: 'skipped',
        geocodeDetail: expect.stringMatching(/not configured on this deployment/),
        geocodeRetryable: true,
      });
    });

    it('rule 5: a new label clears the pin; new coordinates clear the address and its evidence; both void the confirmations', async () => {
      const m = await register(alice, { location: 'Hall', lat: '10', lng: '20' });
      const confirm = () =>
        db().updateTable('machines').set({ address_confirmed_at: 1, installation_confirmed_at: 2 }).where('machine_no', '=', m.machineNo).execute();
      const confirmations = async () => {
        const r = await row(m.machineNo);
        return [r.address_confirmed_at, r.installation_confirmed_at];
      };

      await confirm();
      const relabelled = await patch(m.machineNo, alice, { location: 'Second floor' });
      expect(relabelled.body.data).toMatchObject({ location: 'Second floor', lat: null, lng: null, geo: { lat: null, lng: null, address: 'Second floor' } });
      expect(await confirmations()).toEqual([null, null]);

      await patch(m.machineNo, alice, { address: '1 Main St' });
      await confirm();
      const moved = await patch(m.machineNo, alice, { lat: '11', lng: '21' });
      expect(moved.body.data).toMatchObject({ lat: '11', lng: '21', address: null, placeId: null });
      expect(moved.body.data.geo).not.toHaveProperty('geocodeStatus');
      expect(await confirmations()).toEqual([null, null]);

      // Re-sending the values already stored is not a change: nothing is cleared.
      await confirm();
      const same = await patch(m.machineNo, alice, { lat: '11', lng: '21', location: moved.body.data.location, name: 'renamed' });
      expect(same.body.data).toMatchObject({ lat: '11', lng: '21', name: 'renamed' });
      expect(await confirmations()).toEqual([1, 2]);
      const version = (await row(m.machineNo)).placement_version;
      await patch(m.machineNo, alice, { notes: 'not a placement' });
      expect((await row(m.machineNo)).placement_version).toBe(version);
      expect(await confirmations()).toEqual([1, 2]);
    });

    it('rule 6: venueId attaches to a venue of the same operator and records the move from now', async () => {
      const m = await register(alice);
      const now = t.clock.now();
      await db()
        .insertInto('venues')
        .values([
          { id: `ven_a_${m.machineNo}`, operator_id: OPERATOR_IDS.alice, name: 'Alice host', rev_share_bps: 0, created_at: now },
          { id: `ven_b_${m.machineNo}`, operator_id: OPERATOR_IDS.bob, name: 'Bob host', rev_share_bps: 0, created_at: now },
        ])
        .execute();
      const moves = () => db().selectFrom('venue_moves').select(['venue_id', 'moved_at']).where('machine_id', '=', m.id).orderBy('moved_at').execute();

      (t.clock as ManualClock).advance(60_000);
      const r = await patch(m.machineNo, alice, { venueId: `ven_a_${m.machineNo}` });
      expect(r.body.data.venueId).toBe(`ven_a_${m.machineNo}`);
      expect(await moves()).toEqual([{ venue_id: `ven_a_${m.machineNo}`, moved_at: t.clock.now() }]);

      // the same venue again is not a move: commission keeps accruing from the first moment
      (t.clock as ManualClock).advance(60_000);
      await patch(m.machineNo, alice, { venueId: `ven_a_${m.machineNo}`, notes: 'x' });
      expect(await moves()).toHaveLength(1);

      const before = await snapshot(db());
      expectRefused(
        await patch(m.machineNo, alice, { venueId: `ven_b_${m.machineNo}`, name: 'half' }),
        400,
        /does not name a venue of this machine's operator/,
      );
      expectRefused(await patch(m.machineNo, alice, { venueId: 'ven_missing' }), 400, /does not name a venue/);
      expect(await snapshot(db())).toBe(before); // the name in the refused request was not written either

      const detached = await patch(m.machineNo, alice, { venueId: null });
      expect(detached.body.data.venueId).toBeNull();
      expect((await moves()).map((x) => x.venue_id)).toEqual([`ven_a_${m.machineNo}`, null]);
    });

    it('timeZone must be a real IANA zone name', async () => {
      const m = await register(alice);
      expect((await patch(m.machineNo, alice, { timeZone: 'Europe/Berlin' })).body.data.timeZone).toBe('Europe/Berlin');
      expect((await patch(m.machineNo, alice, { timeZone: 'america/chicago' })).body.data.timeZone).toBe('America/Chicago');
      for (const bad of ['+01:00', 'UTC+1', 'Mars/Olympus', 'Europe/Berlin ', 'E'.repeat(65)]) {
        expectRefused(await patch(m.machineNo, alice, { timeZone: bad }), 400, /timeZone must be an IANA zone name/);
      }
      expectRefused(await patch(m.machineNo, alice, { timeZone: 1 }), 422);
      expect((await patch(m.machineNo, alice, { timeZone: null })).body.data.timeZone).toBeNull();
    });

    it('salesTaxRate is a percentage 0–100 with at most 4 decimals', async () => {
      const m = await register(alice);
      expect((await patch(m.machineNo, alice, { salesTaxRate: 8.875 })).body.data.salesTaxRate).toBe(8.875);
      expectRefused(await patch(m.machineNo, alice, { salesTaxRate: 100.5 }), 400, /between 0 and 100/);
      expectRefused(await patch(m.machineNo, alice, { salesTaxRate: -1 }), 400, /between 0 and 100/);
      expectRefused(await patch(m.machineNo, alice, { salesTaxRate: 8.87501 }), 400, /at most 4 decimals/);
      expectRefused(await patch(m.machineNo, alice, { salesTaxRate: '8.875' }), 422);
      expect((await row(m.machineNo)).sales_tax_rate).toBe(8.875);
    });

    it('refuses control characters and lone surrogates in every text field, before the store sees them', async () => {
      const m = await register(alice);
      const before = await snapshot(db());
      for (const bad of ['a\u0000b', 'x\ud800', '\u0007bell']) {
        for (const body of [
          { name: bad },
          { notes: bad },
          { location: bad },
          { address: bad },
          { venueId: bad },
          { timeZone: bad },
          { lat: '1', lng: '2', placeId: bad },
        ]) {
          const r = await patch(m.machineNo, alice, body);
          expectRefused(r, 400, /control characters|timeZone must be/);
        }
        expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo: freshSerial(), name: bad }), 400, /control characters/);
        expectRefused(await api('POST', '/api/v1/machines/register', alice, { machineNo: freshSerial(), location: bad }), 400, /control characters/);
        expectRefused(
          await api('POST', '/api/v1/machines/register', admin, { machineNo: freshSerial(), operatorEmail: `${bad}@x.test` }),
          400,
          /control characters/,
        );
        // (a lone surrogate cannot travel in a query string: URL encoding replaces it with U+FFFD)
        if (!bad.includes('\ud800')) expectRefused(await api('GET', '/api/v1/machines', admin, undefined, { operatorEmail: bad }), 400, /control characters/);
        expectRefused(await api('POST', `/api/v1/machines/${m.machineNo}/geocode/retry`, alice, { address: bad }), 400, /control characters/);
      }
      expect(await snapshot(db())).toBe(before);
      // line breaks are fine in notes
      expect((await patch(m.machineNo, alice, { notes: 'line one\nline two' })).body.data.notes).toBe('line one\nline two');
    });

    it('enforces the §8 length limits with a message naming the field', async () => {
      const m = await register(alice);
      const cases: [string, number, RegExp][] = [
        ['name', 101, /name must be at most 100/],
        ['notes', 256, /notes must be at most 255/],
        ['location', 256, /location must be at most 255/],
        ['address', 256, /address must be at most 255/],
      ];
      for (const [field, n, msg] of cases) expectRefused(await patch(m.machineNo, alice, { [field]: 'x'.repeat(n) }), 400, msg);
      expectRefused(await patch(m.machineNo, alice, { lat: '1', lng: '1', placeId: 'p'.repeat(129) }), 400, /placeId must be at most 128/);
      const ok = await patch(m.machineNo, alice, { name: 'x'.repeat(100), notes: 'y'.repeat(255), lat: '1', lng: '1', placeId: 'p'.repeat(128) });
      expect(ok.status).toBe(200);
      expect(ok.body.data.placeId).toHaveLength(128);
    });
  });

  describe('POST /machines/:machineNo/geocode/retry without a geocoder', () => {
    it('re-records skipped, and refuses a machine with no address with 409', async () => {
      const m = await register(alice);
      expectRefused(await api('POST', `/api/v1/machines/${m.machineNo}/geocode/retry`, alice), 409, /no stored address/);
      await patch(m.machineNo, alice, { address: '9 Elm St' });
      const r = await api('POST', `/api/v1/machines/${m.machineNo}/geocode/retry`, alice);
      expect(r.status).toBe(200);
      expect(r.body.data.geo).toMatchObject({ geocodeStatus: 'skipped', geocodeRetryable: true });
      expectRefused(await api('POST', `/api/v1/machines/${m.machineNo}/geocode/retry`, alice, { address: 7 }), 422);
    });
  });
});
