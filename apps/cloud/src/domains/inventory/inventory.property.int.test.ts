import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, type ApiResponse, type TestServer } from '../../testing/harness.ts';
import { ALICE, BOB, snapshot, startServer } from '../payments/operator-core.test-support.ts';

/** Hostile bodies and paths at the inventory writes: always a 4xx envelope or a sane 200, never a 5xx, nothing changed on refusal. */

const FIELDS = ['currentStock', 'maxStock', 'alertThreshold', 'sellingPrice', 'faulted'] as const;

const hostileValue = fc.oneof(
  fc.integer({ min: -20, max: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1.75, 1.755, 1e308, -1e-9, 2 ** 31, 2 ** 53, 99999.99, 100000.01),
  fc.boolean(),
  fc.constant(null),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.array(fc.integer({ min: -2, max: 12 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

/** Mostly valid partial updates, so accepted changes are exercised as well as refusals. */
const plausiblePatch = fc.record(
  {
    currentStock: fc.integer({ min: 0, max: 14 }),
    maxStock: fc.integer({ min: 0, max: 14 }),
    alertThreshold: fc.integer({ min: 0, max: 6 }),
    sellingPrice: fc.integer({ min: 0, max: 1000 }).map((c) => c / 100),
    faulted: fc.boolean(),
  },
  { requiredKeys: [] },
);

const patchBody = fc.oneof(
  { weight: 3, arbitrary: plausiblePatch },
  fc.record(Object.fromEntries(FIELDS.map((k) => [k, hostileValue])) as Record<(typeof FIELDS)[number], typeof hostileValue>, { requiredKeys: [] }),
  fc.dictionary(fc.string({ maxLength: 16 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const restockBody = fc.oneof(
  { weight: 2, arbitrary: fc.record({ aisles: fc.subarray([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { minLength: 1 }) }, { requiredKeys: [] }) },
  fc.record(
    {
      aisles: fc.oneof(
        fc.array(fc.oneof(fc.integer({ min: -3, max: 14 }), fc.integer(), fc.double(), fc.string({ maxLength: 3 }), fc.constant(null)), { maxLength: 6 }),
        hostileValue,
      ),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A JSON body, or raw text sent as JSON or as something else. */
const transport = fc.oneof(
  { weight: 4, arbitrary: fc.constant('json' as const) },
  { weight: 1, arbitrary: fc.constantFrom('raw-json' as const, 'text' as const, 'form' as const) },
);

const machineSegment = fc.oneof(
  { weight: 6, arbitrary: fc.constant('SBX-ALICE-0001') },
  { weight: 1, arbitrary: fc.constantFrom('SBX-BOB-0001', 'SBX-POOL-0001', 'sbx-alice-0001', '..', '%00', 'SBX-ALICE-0001%20') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
);

const aisleSegment = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -2, max: 12 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('1e1', '0x3', ' 3', '3.0', '3.5', 'Infinity', 'NaN', '-0', '99999999999999999999', '1024', '1025', '%20') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
);

function send(t: TestServer, method: 'PUT' | 'POST', path: string, body: unknown, how: 'json' | 'raw-json' | 'text' | 'form'): Promise<ApiResponse> {
  const headers = { ...ALICE };
  if (how === 'json') return call(t.url, method, path, { headers, json: body });
  const raw = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
  const type = how === 'raw-json' ? 'application/json' : how === 'text' ? 'text/plain' : 'application/x-www-form-urlencoded';
  return call(t.url, method, path, { headers: { ...headers, 'content-type': type }, body: raw });
}

function expectEnvelope(r: ApiResponse): void {
  expect(r.status, r.text).toBeLessThan(500);
  expect([200, 400, 404, 422]).toContain(r.status);
  expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: r.status === 200 ? expect.anything() : null });
}

describe.each(DIALECTS)('inventory writes under hostile input on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer(dialect);
  });
  afterAll(async () => t.close());

  const aislesSane = async () => {
    const rows = await t.ctx.database.db.selectFrom('aisles').selectAll().execute();
    for (const a of rows) {
      expect(a.current_stock).toBeGreaterThanOrEqual(0);
      expect(a.current_stock).toBeLessThanOrEqual(a.max_stock);
      expect(a.alert_threshold).toBeLessThanOrEqual(a.max_stock);
      expect(a.price_cents).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(a.price_cents)).toBe(true);
      expect([0, 1]).toContain(a.faulted);
    }
  };

  it('PUT aisle: a 4xx envelope or a sane change, never a 5xx; refusals change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(machineSegment, aisleSegment, patchBody, transport, async (machine, aisle, body, how) => {
        const before = await snapshot(t, ['aisles', 'audit_log']);
        const r = await send(t, 'PUT', `/api/v1/inventory/machines/${machine}/aisles/${aisle}`, body, how);
        expectEnvelope(r);
        if (r.status !== 200) expect(await snapshot(t, ['aisles', 'audit_log'])).toBe(before);
        else await aislesSane();
      }),
      { numRuns: 60 },
    );
  });

  it('POST restock: a 4xx envelope or a sane restock, never a 5xx; refusals change nothing', async () => {
    // empty the machine first so a successful restock is visible and a refused one is not
    await fc.assert(
      fc.asyncProperty(machineSegment, restockBody, transport, async (machine, body, how) => {
        await t.ctx.database.db.updateTable('aisles').set({ current_stock: 0 }).execute();
        const before = await snapshot(t, ['aisles', 'audit_log']);
        const r = await send(t, 'POST', `/api/v1/inventory/machines/${machine}/restock`, body, how);
        expectEnvelope(r);
        if (r.status !== 200) expect(await snapshot(t, ['aisles', 'audit_log'])).toBe(before);
        else await aislesSane();
      }),
      { numRuns: 60 },
    );
  });

  it("bob can never change alice's aisles, whatever he sends", async () => {
    await fc.assert(
      fc.asyncProperty(patchBody, async (body) => {
        const before = await snapshot(t, ['aisles', 'audit_log']);
        const r = await call(t.url, 'PUT', '/api/v1/inventory/machines/SBX-ALICE-0001/aisles/1', { headers: BOB, json: body });
        expect([400, 404, 422]).toContain(r.status);
        expect(await snapshot(t, ['aisles', 'audit_log'])).toBe(before);
      }),
      { numRuns: 30 },
    );
  });
});
