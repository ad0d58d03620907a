import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, type ApiResponse, type TestServer } from '../../testing/harness.ts';
import { ALICE, snapshot, startServer } from '../payments/operator-core.test-support.ts';

/** Hostile queries at every order and payment read: a 200 or a 4xx envelope, never a 5xx, never a write. */

const READS = ['/api/v1/orders', '/api/v1/orders/summary', '/api/v1/payments', '/api/v1/payments/summary'] as const;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** Wall-clock strings: valid ones, impossible ones, and near misses. */
const wallClock = fc.oneof(
  fc
    .date({ min: new Date('1960-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 19).replace('T', ' ')),
  fc
    .tuple(
      fc.integer({ min: 0, max: 10000 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
    )
    .map(([y, mo, d, h, mi, s]) => `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`),
  fc.constantFrom(
    '2026-11-20T10:00:00',
    '2026-11-20',
    '2026-11-20 10:00',
    '2026-11-20 10:00:00Z',
    ' 2026-11-20 10:00:00',
    '2026-11-20  10:00:00',
    '2026-03-08 02:30:00',
    '2026-11-01 01:30:00',
  ),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
);
const number = fc.oneof(
  fc.integer({ min: -5, max: 150 }).map(String),
  fc.constantFrom('1e3', '0x10', '1.5', '', ' ', 'NaN', '-0', '99999999999999999999'),
  fc.string({ maxLength: 6 }),
);
const machineNo = fc.oneof(
  fc.constantFrom('SBX-ALICE-0001', 'SBX-ALICE-0003', 'SBX-BOB-0001', 'SBX-POOL-0001', ''),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
);

/** Each parameter absent, once, or repeated (Express reads a repeated parameter as an array). */
const param = <T extends string>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant([] as T[]) }, { weight: 4, arbitrary: value.map((v) => [v]) }, fc.array(value, { minLength: 2, maxLength: 3 }));

const query = fc.record({
  machineNo: param(machineNo),
  startTime: param(wallClock),
  endTime: param(wallClock),
  page: param(number),
  size: param(number),
  extra: fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 8 }), { maxKeys: 2 }),
});

function queryString(q: Record<string, string[] | Record<string, string>>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (Array.isArray(v)) for (const one of v) p.append(k, one);
    else for (const [ek, ev] of Object.entries(v)) p.append(ek, ev);
  }
  return p.toString();
}

describe.each(DIALECTS)('order and payment reads under hostile queries on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer(dialect);
  });
  afterAll(async () => t.close());

  it('answer 200 or a 4xx envelope, never a 5xx, and write nothing', async () => {
    const statuses = new Set<number>();
    const before = await snapshot(t, ['aisles', 'orders', 'payment_events']);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READS), query, async (path, q) => {
        const r: ApiResponse = await call(t.url, 'GET', `${path}?${queryString(q)}`, { headers: ALICE });
        statuses.add(r.status);
        expect(r.status, r.text).toBeLessThan(500);
        expect([200, 400, 404, 422]).toContain(r.status);
        expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: r.status === 200 ? expect.anything() : null });
      }),
      { numRuns: 80 },
    );
    expect(await snapshot(t, ['aisles', 'orders', 'payment_events'])).toBe(before);
    // the generators reach every outcome, so the property is not vacuous
    expect([...statuses].sort()).toEqual([200, 400, 404, 422]);
  });

  it('any order number in the path is the order, 404, or 400 — never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 140 }), fc.constantFrom('\u0000', 'SBX\u0000', '%', '..')),
        async (n) => {
          const r = await call(t.url, 'GET', `/api/v1/orders/${encodeURIComponent(n)}`, { headers: ALICE });
          expect([200, 400, 404]).toContain(r.status);
          expect(r.body).toMatchObject({ code: r.status });
        },
      ),
      { numRuns: 50 },
    );
  });
});
