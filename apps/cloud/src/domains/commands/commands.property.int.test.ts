import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { ALICE_MACHINE, BOB_MACHINE, setAisle } from './commands.test-support.ts';

/**
 * Hostile input at every write endpoint of remote dispense: whatever the body, the answer is never a
 * 5xx; a refusal is a 4xx in the envelope and changes nothing in the store.
 */
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const RUNS = 50;

/** Percent-encodes a path segment; text that cannot be encoded (a lone surrogate) is sent raw-escaped instead. */
function encodePath(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s);
  }
}

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

const dispenseBody = fc.oneof(
  hostile,
  fc.constant({ aisleNo: 1, reason: 'promo' }),
  fc.record(
    {
      aisleNo: maybe(fc.integer({ min: -2, max: 12 })),
      reason: maybe(fc.constantFrom('reward x', 'promo')),
      externalRef: maybe(fc.constantFrom('p-1', 'p-2')),
    },
    { requiredKeys: [] },
  ),
);
const fulfillBody = fc.oneof(
  hostile,
  fc.record(
    {
      channel: maybe(fc.constantFrom('walkup', 'api_drop', 'WALKUP', 'drone')),
      machineNo: maybe(fc.constantFrom(ALICE_MACHINE, BOB_MACHINE, 'SBX-NOPE-0001', 'x')),
      aisleNo: maybe(fc.integer({ min: -2, max: 12 })),
      reason: maybe(fc.constant('promo')),
      externalRef: maybe(fc.constantFrom('f-1', 'f-2')),
    },
    { requiredKeys: [] },
  ),
);
const ackBody = fc.oneof(
  hostile,
  fc.constant({ success: false, outcome: 'motor_jam', detail: '' }),
  fc.record({ success: maybe(fc.boolean()), outcome: maybe(fc.constantFrom('success', 'motor_jam')), detail: maybe(fc.constant('d')) }, { requiredKeys: [] }),
);
/** A path segment: any text percent-encoded, or broken encodings, NULs, traversal, over-long ids. */
const hostileSegment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }).map(encodePath),
  fc.constantFrom('%E0', '%', '%zz', '%E0%A4%A', '%00', 'cmd_%00', 'SBX-ALICE-0001%00', '..', '%2F', 'cmd_' + 'z'.repeat(80)),
);
/** Raw bodies: broken JSON, wrong content, prototype keys. */
const rawBody = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{"oops', '[]', 'null', '"str"', '1e999', '{"__proto__":{"aisleNo":1},"reason":"x"}', '{"constructor":{"prototype":{"x":1}}}'),
);

describe.each(DIALECTS)('remote dispense bad input on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '1000000' } });
    for (let a = 1; a <= 10; a++) await setAisle(t, ALICE_MACHINE, a, { stock: 1000, faulted: a === 9 });
    await setAisle(t, ALICE_MACHINE, 10, { stock: 0 });
  });
  afterAll(async () => t.close());

  /** Everything a refused request must leave untouched. */
  async function snapshot(): Promise<string> {
    const db = t.ctx.database.db;
    const [commands, orders, aisles, audit] = await Promise.all([
      db.selectFrom('dispense_commands').select(['id', 'status', 'outcome', 'detail', 'order_number', 'acked_at']).orderBy('id').execute(),
      db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      db.selectFrom('aisles').select(['machine_id', 'aisle_no', 'current_stock']).orderBy('machine_id').orderBy('aisle_no').execute(),
      db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return JSON.stringify({ commands, orders: Number(orders.n), aisles, audit: Number(audit.n) });
  }

  /** Sends one request; asserts the invariant; answers the status. */
  async function probe(method: string, path: string, body: { json: unknown } | { raw: string }): Promise<number> {
    const before = await snapshot();
    const r = await call(t.url, method, path, {
      headers: { ...alice, 'content-type': 'application/json' },
      ...('json' in body ? (body.json === undefined ? { body: '' } : { json: body.json }) : { body: body.raw }),
    });
    expect(r.status, r.text).toBeLessThan(500);
    if (r.status >= 400) {
      expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: null });
      expect(await snapshot()).toBe(before);
    } else {
      expect(r.status).toBe(200);
    }
    return r.status;
  }

  it('POST /machines/{machineNo}/commands/dispense, including hostile machine serials', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          dispenseBody.map((json) => ({ json })),
          rawBody.map((raw) => ({ raw })),
        ),
        fc.option(hostileSegment, { nil: undefined }),
        async (body, machine) => {
          statuses.add(await probe('POST', `/api/v1/machines/${machine ?? ALICE_MACHINE}/commands/dispense`, body));
        },
      ),
      { numRuns: RUNS },
    );
    expect([...statuses].some((s) => s >= 400)).toBe(true);
  });

  it('POST /fulfill', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fulfillBody.map((json) => ({ json })),
          rawBody.map((raw) => ({ raw })),
        ),
        async (body) => {
          await probe('POST', '/api/v1/fulfill', body);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('POST /machines/{machineNo}/commands/{commandId}/ack, including hostile command ids', async () => {
    const fresh = async () => {
      const r = await call<{ data: { commandId: string } }>(t.url, 'POST', `/api/v1/machines/${ALICE_MACHINE}/commands/dispense`, {
        headers: alice,
        json: { aisleNo: 1, reason: 'property target' },
      });
      return r.body.data.commandId;
    };
    let target = await fresh();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          ackBody.map((json) => ({ json })),
          rawBody.map((raw) => ({ raw })),
        ),
        fc.option(hostileSegment, { nil: undefined }),
        async (body, hostileId) => {
          const id = hostileId ?? target;
          const status = await probe('POST', `/api/v1/machines/${ALICE_MACHINE}/commands/${id}/ack`, body);
          if (status === 200 && hostileId === undefined) target = await fresh();
        },
      ),
      { numRuns: RUNS },
    );
  });
});
