import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { MOCK_SSP } from './mock-ssp.service.ts';

/**
 * Hostile input at the mock SSP: whatever the get_ad body, PoP lease id or receipts query, the answer
 * is never a 5xx; a refusal is a 4xx in the envelope and writes no lease; an answer of 200 is the
 * SSP's own JSON with at most 3 ads, each of which is a lease in the book.
 */
const RUNS = Number(process.env['SSP_RUNS'] ?? 60);

/** Values that break types, rules and stores: NULs, control characters, huge and non-integer numbers, nesting. */
const hostile = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 400 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, false, '', ' ', '\u0000', 'a\u0000b', '\ud800', -1, 0, 1e308, Number.MAX_SAFE_INTEGER + 2, '3', [], {}, [1], { $gt: '' }),
);
const maybe = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, hostile);

const displayArea = fc.oneof(
  hostile,
  fc.record(
    {
      id: maybe(fc.constantFrom('a', 'b', 'slot-1')),
      width: maybe(fc.integer({ min: -1, max: 20000 })),
      height: maybe(fc.integer({ min: -1, max: 20000 })),
      supported_media: maybe(fc.array(maybe(fc.constantFrom('image/png', 'video/mp4', 'IMAGE/PNG')), { maxLength: 20 })),
      min_duration: maybe(fc.integer({ min: -1, max: 4000 })),
      max_duration: maybe(fc.integer({ min: -1, max: 4000 })),
      allow_audio: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
);

const getAdBody = fc.oneof(
  hostile,
  fc.record(
    {
      network_id: maybe(fc.constant(MOCK_SSP.networkId)),
      api_key: maybe(fc.constant(MOCK_SSP.apiKey)),
      device_id: maybe(fc.constantFrom('SBX-ALICE-0001', 'dev-1')),
      venue_id: maybe(fc.constantFrom('v-1', 'x'.repeat(200))),
      display_time: maybe(fc.integer({ min: -1, max: 2_000_000_000 })),
      display_area: maybe(fc.array(displayArea, { maxLength: 20 })),
      latitude: maybe(fc.double({ min: -100, max: 100 })),
      longitude: maybe(fc.double({ min: -200, max: 200 })),
      device_attribute: maybe(fc.array(fc.record({ name: maybe(fc.constant('venue_category')), value: maybe(fc.constant('retail')) }), { maxLength: 3 })),
    },
    { requiredKeys: [] },
  ),
);

/** Percent-encodes a path segment; text that cannot be encoded (a lone surrogate) is sent raw-escaped instead. */
function encodePath(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s);
  }
}

/** Any value as query text (an object whose toString is not a function cannot go through String()). */
function asQuery(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined');
}

describe.each(DIALECTS)('mock SSP under hostile input (%s)', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { seed: false });
  });
  afterAll(async () => t.close());

  const leaseCount = async () =>
    Number(
      (
        await t.ctx.database.db
          .selectFrom('ssp_mock_leases')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('get_ad: never a 5xx; a refusal is a 4xx envelope that writes nothing; a 200 leases what it answers', async () => {
    await fc.assert(
      fc.asyncProperty(getAdBody, async (body) => {
        const before = await leaseCount();
        const res = await call<Record<string, unknown>>(t.url, 'POST', '/ssp/mock/get_ad/json', {
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBeLessThan(500);
        const after = await leaseCount();
        if (res.status === 200) {
          const ads = (res.body as { advertisement: { lease_id: string }[] }).advertisement;
          expect(ads.length).toBeLessThanOrEqual(3);
          expect(after - before).toBe(ads.length);
        } else {
          expect([400, 401, 422]).toContain(res.status);
          expect(res.body).toMatchObject({ code: res.status, data: null });
          expect(typeof res.body['message']).toBe('string');
          expect(after).toBe(before);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('pop and receipts: never a 5xx, whatever the lease id or query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }), hostile, hostile, async (leaseId, page, device) => {
        const pop = await call(t.url, 'GET', `/ssp/mock/pop/${encodePath(leaseId)}`);
        expect(pop.status).toBeLessThan(500);
        if (pop.status !== 200) expect(pop.body).toMatchObject({ code: pop.status, data: null });
        const rec = await call(t.url, 'GET', '/ssp/mock/receipts', { query: { page: asQuery(page), device_id: asQuery(device) } });
        expect(rec.status).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });
});
