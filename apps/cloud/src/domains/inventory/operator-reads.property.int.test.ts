import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import type { Answer, Body } from '../../testing/answers.ts';
import { ADMIN, ALICE, BOB, catalogued, snapshot, startServer } from '../payments/operator-core.test-support.ts';

/**
 * Hostile paths and queries at the operator reads that had no property test: inventory (list, one
 * machine, lots), commands (pending, list, one) and the operator view and its two QR codes. Whatever
 * is sent, the answer is a 200 or a 4xx in the envelope — never a 5xx — and no row is added, removed
 * or changed.
 */

const RUNS = 60;
const M1 = 'SBX-ALICE-0001';

/** The tables a stray write could touch; their row counts must not move. */
const COUNTED = [
  'operators',
  'api_keys',
  'access_tokens',
  'audit_log',
  'venues',
  'machines',
  'aisles',
  'payment_terminals',
  'orders',
  'dispense_commands',
  'lots',
  'payment_events',
  'job_leases',
] as const;

/** Percent-encodes a path segment; text that cannot be encoded (a lone surrogate) is sent raw-escaped instead. */
function encodePath(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s);
  }
}

/** A path segment: real serials, any text percent-encoded, broken encodings, NULs, traversal, over-long text. */
const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(M1, M1, 'SBX-ALICE-0003', 'SBX-BOB-0001', 'SBX-POOL-0001', 'sbx-alice-0001') },
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodePath),
  fc.string({ unit: 'grapheme', minLength: 100, maxLength: 300 }).map(encodePath),
  fc.constantFrom('%00', `${M1}%00`, '%00SBX', '%', '%zz', '%E0', '%E0%A4%A', '%C0%AE', '%2F', '..', '.', '%20', 'a%FFb', 'SBX-' + 'A'.repeat(250)),
);

/** Number-ish query values: in range, out of range, empty, huge, decimal, exponent, hex, words. */
const numberish = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('1', '2', '20', '100', '240', '640', '1024') },
  fc.integer({ min: -5, max: 1100 }).map(String),
  fc.constantFrom(
    'abc',
    '',
    ' ',
    '1.5',
    '640.5',
    '640.0',
    '1e3',
    '1e400',
    '0x280',
    '-0',
    'NaN',
    'Infinity',
    '99999999999999999999',
    '9007199254740993',
    ' 640',
    '640 ',
  ),
  fc.string({ maxLength: 8 }),
);
/** Free text (sku, externalRef): anything, NULs and control characters included. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', 'SKU-1', 'a\u0000b', '\u0000', '\u007f', '\ud800', 'x'.repeat(200)),
);

/** Each parameter absent, once, or repeated (a repeated parameter reaches the route as an array). */
const param = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as string[]) },
    { weight: 4, arbitrary: value.map((v) => [v]) },
    fc.array(value, { minLength: 2, maxLength: 3 }),
  );

/** Raw query fragments that URLSearchParams would never produce: broken escapes and encoded NULs. */
const rawQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  fc.constantFrom('size=%zz', 'size=%00', 'page=%E0', 'sku=%00', 'sku=%', 'status=%FF', 'externalRef=%00x', 'size[]=640', 'size[a]=1'),
);

function queryString(params: Record<string, string[]>, raw: string): string {
  const p = new URLSearchParams();
  for (const [k, vs] of Object.entries(params)) for (const v of vs) p.append(k, v);
  return [p.toString(), raw].filter(Boolean).join('&');
}

const principal = fc.constantFrom(ALICE, ALICE, ALICE, BOB, ADMIN);

/** Stands for the id of the command made in beforeAll. */
const PLACEHOLDER = '{commandId}';

/** One generated read: which endpoint (for the coverage check) and the path with its query. */
const request = fc.oneof(
  fc
    .record({ page: param(numberish), size: param(numberish), raw: rawQuery })
    .map(({ raw, ...q }) => ({ kind: 'inventory', path: `/api/v1/inventory?${queryString(q, raw)}` })),
  fc.tuple(segment, rawQuery).map(([m, raw]) => ({ kind: 'inventory/machine', path: `/api/v1/inventory/machines/${m}?${raw}` })),
  fc
    .record({ sku: param(text), page: param(numberish), size: param(numberish), raw: rawQuery })
    .map(({ raw, ...q }) => ({ kind: 'inventory/lots', path: `/api/v1/inventory/lots?${queryString(q, raw)}` })),
  segment.map((m) => ({ kind: 'commands/pending', path: `/api/v1/machines/${m}/commands/pending` })),
  fc
    .record({
      m: segment,
      status: param(fc.oneof(fc.constantFrom('pending', 'succeeded', 'failed', 'expired', 'PENDING', ''), text)),
      externalRef: param(text),
      page: param(numberish),
      size: param(numberish),
      raw: rawQuery,
    })
    .map(({ m, raw, ...q }) => ({ kind: 'commands', path: `/api/v1/machines/${m}/commands?${queryString(q, raw)}` })),
  fc
    .tuple(segment, fc.option(segment, { nil: undefined, freq: 2 }))
    .map(([m, id]) => ({ kind: 'commands/one', path: `/api/v1/machines/${m}/commands/${id ?? PLACEHOLDER}` })),
  segment.map((m) => ({ kind: 'operator-view', path: `/api/v1/machines/${m}/operator-view` })),
  fc
    .record({ kind: fc.constantFrom('operator-qr', 'advertise-qr'), m: segment, size: param(numberish), raw: rawQuery })
    .map(({ kind, m, raw, ...q }) => ({ kind, path: `/api/v1/machines/${m}/${kind}?${queryString(q, raw)}` })),
);

const KINDS = [
  'inventory',
  'inventory/machine',
  'inventory/lots',
  'commands/pending',
  'commands',
  'commands/one',
  'operator-view',
  'operator-qr',
  'advertise-qr',
];

describe.each(DIALECTS)('operator reads under hostile paths and queries on %s', (dialect) => {
  let t: TestServer;
  let commandId = '';
  beforeAll(async () => {
    t = await startServer(dialect);
    // a command to read back, so the single-command read reaches its 200 too
    const r = await call<{ data: { commandId: string } }>(t.url, 'POST', `/api/v1/machines/${M1}/commands/dispense`, {
      headers: ALICE,
      json: { aisleNo: 1, reason: 'property read target', externalRef: 'prop-read-1' },
    });
    expect(r.status, r.text).toBe(200);
    commandId = r.body.data.commandId;
  });
  afterAll(async () => t.close());

  async function rowCounts(): Promise<Record<string, number>> {
    const db = t.ctx.database.db;
    const counts = await Promise.all(
      COUNTED.map(async (table) => {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return [table, Number(row.n)] as const;
      }),
    );
    return Object.fromEntries(counts);
  }

  it('answer 200 or a 4xx envelope, never a 5xx, and write nothing', async () => {
    const seen = new Map<string, Set<number>>();
    const countsBefore = await rowCounts();
    const contentBefore = await snapshot(t);
    await fc.assert(
      fc.asyncProperty(request, principal, async ({ kind, path: template }, headers) => {
        const path = template.replace(PLACEHOLDER, commandId);
        const r: Answer = await call(t.url, 'GET', path, { headers });
        if (!seen.has(kind)) seen.set(kind, new Set());
        seen.get(kind)!.add(r.status);
        expect(r.status, `${path} → ${r.text.slice(0, 300)}`).toBeLessThan(500);
        expect([200, 400, 404, 422], path).toContain(r.status);
        if (r.status === 200 && kind.endsWith('-qr')) {
          expect(r.headers.get('content-type')).toBe('image/png');
        } else if (r.status === 200) {
          expect(r.body).toEqual({ code: 200, message: expect.any(String), data: expect.anything() });
        } else {
          expect(r.body, path).toEqual({ code: r.status, message: expect.any(String), data: null });
          // a 400 or 422 names the catalogue text first, then what was wrong (spec 1 §7)
          if (r.status !== 404) expect(r.body.message, path).toMatch(catalogued(r.status));
        }
      }),
      {
        numRuns: RUNS * 8,
        // one well-formed read per endpoint always runs too, so each is seen answering
        examples: [
          [{ kind: 'inventory', path: '/api/v1/inventory' }, ALICE],
          [{ kind: 'inventory/machine', path: `/api/v1/inventory/machines/${M1}` }, ALICE],
          [{ kind: 'inventory/lots', path: '/api/v1/inventory/lots?sku=SKU-1&page=1&size=5' }, ADMIN],
          [{ kind: 'commands/pending', path: `/api/v1/machines/${M1}/commands/pending` }, ALICE],
          [{ kind: 'commands', path: `/api/v1/machines/${M1}/commands?status=pending&externalRef=prop-read-1&page=1&size=5` }, ALICE],
          [{ kind: 'commands/one', path: `/api/v1/machines/${M1}/commands/${PLACEHOLDER}` }, ALICE],
          [{ kind: 'operator-view', path: `/api/v1/machines/${M1}/operator-view` }, ALICE],
          [{ kind: 'operator-qr', path: `/api/v1/machines/${M1}/operator-qr?size=240` }, ALICE],
          [{ kind: 'advertise-qr', path: `/api/v1/machines/${M1}/advertise-qr` }, ADMIN],
        ],
      },
    );
    expect(await rowCounts()).toEqual(countsBefore);
    expect(await snapshot(t)).toBe(contentBefore);
    // every endpoint was reached, and each (but the unpaged, parameterless fleet list) both answered
    // and refused: the property is not vacuous
    expect([...seen.keys()].sort()).toEqual([...KINDS].sort());
    expect([...seen.get('inventory')!]).toEqual([200]);
    for (const [kind, statuses] of seen) {
      if (kind === 'inventory') continue;
      expect(statuses.has(200), `${kind}: ${[...statuses].join(',')}`).toBe(true);
      expect(
        [...statuses].some((s) => s >= 400),
        `${kind}: ${[...statuses].join(',')}`,
      ).toBe(true);
    }
  });

  it.each([
    ['size=abc', 400, 422],
    ['size=', 400, 422],
    ['size=99999999999999999999', 400, 400],
    ['size=640.5', 400, 422],
    ['size=239', 400, 400],
    ['size=1025', 400, 400],
  ])('a QR size of %s is a 4xx naming size, on both QR codes', async (query, low, high) => {
    for (const kind of ['operator-qr', 'advertise-qr']) {
      const r = await call<Body>(t.url, 'GET', `/api/v1/machines/${M1}/${kind}?${query}`, { headers: ALICE });
      expect(r.status, `${kind}?${query}: ${r.text}`).toBeGreaterThanOrEqual(low);
      expect(r.status).toBeLessThanOrEqual(high);
      expect(r.body).toEqual({ code: r.status, message: expect.stringMatching(catalogued(r.status, 'size')), data: null });
    }
  });

  it.each(['%00', `${M1}%00`, '%zz', '%E0%A4%A'])('a machine segment of %s is a 4xx in the envelope at every machine read', async (m) => {
    for (const rest of ['operator-view', 'operator-qr', 'advertise-qr', 'commands', 'commands/pending', `commands/${commandId}`]) {
      const r = await call(t.url, 'GET', `/api/v1/machines/${m}/${rest}`, { headers: ALICE });
      expect([400, 404], `${m}/${rest}: ${r.text}`).toContain(r.status);
      expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: null });
    }
    const inv = await call(t.url, 'GET', `/api/v1/inventory/machines/${m}`, { headers: ALICE });
    expect([400, 404], inv.text).toContain(inv.status);
  });
});
