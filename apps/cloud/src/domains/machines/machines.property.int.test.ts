import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import type { Answer } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { Machine, MachinePage } from './machines.schemas.ts';
import { snapshot } from './machines.factories.ts';

const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };

/** Mostly credentials that reach the rules; sometimes ones that must stop at 401/403. */
const credential = fc.oneof(
  { weight: 6, arbitrary: fc.constant(alice) },
  { weight: 2, arbitrary: fc.constant(admin) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey },
      { 'x-api-key': 'vk_5ba11ce00000a001.wrong-secret-000000' },
      { 'x-api-key': 'x'.repeat(600) },
      { authorization: 'Bearer vat_not-a-token' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      {},
    ),
  },
);

/** Printable ASCII: what an HTTP client can put in a header value. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

const headers = fc.record(
  {
    credential,
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'application/json; charset=utf-8',
          'application/merge-patch+json',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ),
      },
    ),
    extra: fc.dictionary(fc.constantFrom('x-request-id', 'accept', 'x-forwarded-for', 'accept-encoding', 'if-none-match'), headerText, { maxKeys: 3 }),
  },
  { requiredKeys: ['credential', 'contentType'] },
);

const nastyConstants = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'tab\there',
  'line\nbreak',
  '\u0085',
  '\ud800',
  'x\udfff',
  'NaN',
  'Infinity',
  '-0',
  '0',
  '1e308',
  '0x1F',
  '90.00000000001',
  '+01:00',
  'GMT+1',
  "'; drop table machines; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  'x'.repeat(300),
  'é'.repeat(256),
  '😀'.repeat(60),
);
/** A control character or lone surrogate: PostgreSQL refuses NUL outright and mangles lone surrogates. */
const controlChar = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 2, arbitrary: fc.constantFrom('\ud800', '\udfff') },
  { weight: 2, arbitrary: fc.constantFrom('\u0007', '\u001b', '\u007f', '\u0085', '\n', '\t') },
);
/** Strings a careless server chokes on: control characters, lone surrogates, SQL, over-long and numeric-looking text. */
const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), controlChar, fc.string({ maxLength: 10 })).map(([a, c, b]) => a + c + b) },
  { weight: 2, arbitrary: nastyConstants },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 }) },
);
/** Any JSON value of the wrong shape or type. */
const hostile = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
    ),
  },
);

const degrees = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((n) => (n / 1e6).toFixed(6));
const text = (max: number) => fc.string({ maxLength: max });
const nonEmpty = (max: number) => fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim().length > 0);
/** A whole pin (lat and lng together, sometimes with a placeId): spread into the body as one field. */
const pin = fc.record({ lat: degrees(90), lng: degrees(180), placeId: nonEmpty(128) }, { requiredKeys: ['lat', 'lng'] });
const PIN = '...pin';

/**
 * Mostly: a few well-formed fields plus exactly one hostile one, so the hostile value is the only
 * problem and has to be caught by the rule (or the store) behind it; sometimes all well-formed.
 * A field named `...pin` is spread (a valid pin) or replaced by a hostile lone `lat`.
 */
function fields(valid: Record<string, fc.Arbitrary<unknown>>, required: string[] = []) {
  const keys = Object.keys(valid);
  const optional = keys.filter((k) => !required.includes(k));
  return fc
    .record({
      picked: fc.subarray(optional, { minLength: 0, maxLength: Math.min(3, optional.length) }),
      hostileKey: fc.option(fc.constantFrom(...keys), { freq: 4 }),
    })
    .chain(({ picked, hostileKey }) => {
      const chosen = [...new Set([...required, ...picked, ...(hostileKey ? [hostileKey] : [])])];
      if (chosen.length === 0) chosen.push(optional[0] ?? keys[0]!);
      return fc.tuple(...chosen.map((k) => (k === hostileKey ? hostile.map((v) => ({ bad: v })) : valid[k]!.map((v) => ({ ok: v }))))).map((vals) => {
        const out: Record<string, unknown> = {};
        chosen.forEach((k, i) => {
          const v = vals[i]!;
          if (k === PIN) Object.assign(out, 'ok' in v ? (v.ok as object) : { lat: v.bad });
          else out[k] = 'ok' in v ? v.ok : v.bad;
        });
        return out;
      });
    });
}

/** Raw request bodies: mostly field-wise objects, sometimes unknown keys, arbitrary JSON, or text that is not JSON. */
const body = (valid: Record<string, fc.Arbitrary<unknown>>, required: string[] = []) =>
  fc.oneof(
    { weight: 8, arbitrary: fields(valid, required).map((o): { json: unknown } => ({ json: o })) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), hostile, { maxKeys: 3 }).map((o): { json: unknown } => ({ json: o })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v): { json: unknown } => ({ json: v })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"name":', '{"__proto__":{"admin":true}}', 'null', '[]', '"x"', '{}', '{"a":1,"a":2}', '[[[[[[[[[[1]]]]]]]]]]')
        .map((raw) => ({ raw })),
    },
  );

/** Path segments: real serials, hostile text (encoded), and escapes that do not decode. */
const pathSegment = (owned: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...owned) },
    { weight: 2, arbitrary: hostileText.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%E0%A4%A', '%', 'SBX-ALICE-%00', '%F0%9F%98', '%C0%80') },
  );

function encodeSegment(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as the bytes a client would send
  }
}

function send(r: { json: unknown } | { raw: string }): { json?: unknown; body?: string } {
  return 'json' in r ? (r.json === undefined ? {} : { json: r.json }) : { body: r.raw };
}

function requestHeaders(h: { credential: Record<string, string>; contentType: string; extra?: Record<string, string> }): Record<string, string> {
  return { ...h.extra, ...h.credential, 'content-type': h.contentType };
}

describe.each(DIALECTS)('hostile input to the machines API on %s', (dialect) => {
  let t: TestServer;
  const seen = { ok: 0, refused: 0 };
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => {
    await t.close();
    // A property run that never reached a successful write, or never a refusal, tested little.
    expect(seen.ok).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });

  /** The answer is a 4xx envelope that wrote nothing, or a 200 whose data matches the documented schema. */
  async function judge(r: Answer, before: string, ok: z.ZodType): Promise<void> {
    expect(r.status, r.text).toBeLessThan(500);
    if (r.status >= 400) {
      seen.refused++;
      expect(r.body).toEqual({ code: r.status, message: expect.any(String), data: null });
      expect(r.body.message.length).toBeGreaterThan(0);
      expect(await snapshot(t.ctx.database.db)).toBe(before);
    } else {
      seen.ok++;
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(200);
      ok.parse(r.body.data);
    }
  }

  it('POST /machines/register: never a 5xx, never a half-write', async () => {
    await fc.assert(
      fc.asyncProperty(
        body(
          {
            machineNo: fc.oneof(
              { weight: 4, arbitrary: fc.stringMatching(/^[A-Z0-9-]{8,32}$/) },
              { weight: 1, arbitrary: fc.constantFrom('SBX-ALICE-0001', 'SBX-BOB-0001') },
            ),
            name: nonEmpty(100),
            location: text(255),
            [PIN]: pin.map(({ lat, lng }) => ({ lat, lng })),
            operatorEmail: fc.constantFrom(SANDBOX_CREDENTIALS.bob.email, 'ALICE@sandbox.vend.test', 'nobody@example.test'),
          },
          ['machineNo'],
        ),
        headers,
        async (b, h) => {
          const before = await snapshot(t.ctx.database.db);
          const r: Answer = await call(t.url, 'POST', '/api/v1/machines/register', { headers: requestHeaders(h), ...send(b) });
          await judge(r, before, Machine);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('PATCH and PUT /machines/:machineNo: never a 5xx, never a half-write', async () => {
    const now = Date.now();
    await t.ctx.database.db
      .insertInto('venues')
      .values([
        { id: 'ven_prop_alice', operator_id: 'op_sbx_alice', name: 'Alice host', rev_share_bps: 0, created_at: now },
        { id: 'ven_prop_bob', operator_id: 'op_sbx_bob', name: 'Bob host', rev_share_bps: 0, created_at: now },
      ])
      .execute();
    await fc.assert(
      fc.asyncProperty(
        pathSegment(['SBX-ALICE-0002', 'SBX-ALICE-0003', 'SBX-ALICE-0002', 'SBX-ALICE-0003', 'SBX-BOB-0002']),
        fc.constantFrom('PATCH', 'PUT'),
        body({
          name: nonEmpty(100),
          notes: fc.oneof(text(255), fc.constant(null)),
          location: text(255),
          [PIN]: pin,
          address: nonEmpty(255),
          timeZone: fc.constantFrom('America/New_York', 'Etc/GMT+1', 'UTC', 'Asia/Kolkata', null),
          salesTaxRate: fc.oneof(
            fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1e4),
            fc.constant(null),
          ),
          venueId: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom('ven_prop_alice', null) },
            { weight: 1, arbitrary: fc.constantFrom('ven_prop_bob', 'ven_missing') },
          ),
        }),
        headers,
        async (machineNo, method, b, h) => {
          const before = await snapshot(t.ctx.database.db);
          const r: Answer = await call(t.url, method, `/api/v1/machines/${machineNo}`, { headers: requestHeaders(h), ...send(b) });
          await judge(r, before, Machine);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('GET /machines with hostile queries: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('page', 'size', 'status', 'operatorEmail', 'sort', '__proto__'),
            fc.oneof(
              hostileText,
              fc.integer({ min: -5, max: 200 }).map(String),
              fc.constantFrom('online', 'offline', SANDBOX_CREDENTIALS.bob.email, '9007199254740993'),
            ),
          ),
          { maxLength: 4 },
        ),
        headers,
        async (pairs, h) => {
          const q = new URLSearchParams();
          for (const [k, v] of pairs) q.append(k, v);
          const before = await snapshot(t.ctx.database.db);
          const r: Answer = await call(t.url, 'GET', `/api/v1/machines?${q.toString()}`, { headers: requestHeaders(h) });
          await judge(r, before, MachinePage);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('geocode retry and GET one machine with hostile paths and bodies: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(pathSegment(['SBX-ALICE-0001', 'SBX-BOB-0001', 'SBX-POOL-0001']), body({ address: nonEmpty(255) }), headers, async (machineNo, b, h) => {
        const path = `/api/v1/machines/${machineNo}`;
        const before = await snapshot(t.ctx.database.db);
        const r: Answer = await call(t.url, 'POST', `${path}/geocode/retry`, { headers: requestHeaders(h), ...send(b) });
        await judge(r, before, Machine);
        const g: Answer = await call(t.url, 'GET', path, { headers: requestHeaders(h) });
        // an empty segment is `/api/v1/machines/`, which is the list
        await judge(g, await snapshot(t.ctx.database.db), z.union([Machine, MachinePage]));
      }),
      { numRuns: 60 },
    );
  });
});
