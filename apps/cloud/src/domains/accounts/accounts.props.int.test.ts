import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { countRows } from '../auth/auth.testkit.ts';
import { checkedFetch } from '../../testing/contract.ts';

const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
const TABLES = ['operators', 'api_keys', 'audit_log'] as const;

/** Text a hostile client sends: control characters (NUL first: PostgreSQL text cannot hold it), lone surrogates, sizes, near misses. */
const controlChar = fc.constantFrom('\u0000', '\u0001', '\u0008', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff');
const withControl = fc.tuple(fc.string({ maxLength: 12 }), controlChar, fc.string({ maxLength: 12 })).map(([a, c, b]) => a + c + b);
const hostileText = fc.oneof(
  withControl,
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', 'x'.repeat(101), 'x'.repeat(300), "' OR 1=1 --", '__proto__', 'USD', 'usd', SANDBOX_CREDENTIALS.alice.email),
);
let seq = 0;
/** An email that is new to the store (so a refusal is down to the other fields), optionally spoiled by a control character. */
const email = fc.oneof(
  fc.constant(null).map(() => `hostile-${Date.now()}-${++seq}@example.test`),
  fc.tuple(fc.constant(null), controlChar, fc.nat(3)).map(([, c, at]) => {
    const e = `hostile-${Date.now()}-${++seq}@example.test`;
    const i = [0, 3, e.indexOf('@'), e.length][at]!;
    return e.slice(0, i) + c + e.slice(i);
  }),
  hostileText,
);
const anyJson = fc.jsonValue({ maxDepth: 2 });
const accountish = fc.record(
  {
    email: fc.oneof({ arbitrary: email, weight: 4 }, { arbitrary: anyJson, weight: 1 }),
    name: fc.oneof({ arbitrary: withControl, weight: 3 }, hostileText, fc.constant('Fine Name'), anyJson),
    password: fc.oneof(hostileText, fc.constant('long-enough-password'), anyJson),
    admin: fc.oneof(fc.boolean(), anyJson),
    currency: fc.oneof(fc.constantFrom('EUR', 'GBP'), hostileText, anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

describe.each(DIALECTS)('hostile bodies at POST /api/v1/accounts on %s', (dialect) => {
  const t = suiteServer(dialect);

  const counts = () => Promise.all(TABLES.map((x) => countRows(t, x)));

  it('never a 5xx; a refusal is a 4xx in the envelope and writes nothing; an acceptance writes exactly one account', async () => {
    const body = fc.oneof(
      accountish.map((o) => JSON.stringify(o)),
      anyJson.map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await counts();
        const res = await checkedFetch(`${t.url}/api/v1/accounts`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: b });
        const text = await res.text();
        expect(res.status, text).toBeLessThan(500);
        const json = JSON.parse(text) as { code: number; data: unknown };
        if (res.status === 200) {
          expect(json.code).toBe(200);
          expect(await counts()).toEqual(before.map((n) => n + 1));
        } else {
          expect(res.status, text).toBeGreaterThanOrEqual(400);
          expect(json).toEqual({ code: res.status, message: expect.any(String), data: null });
          expect(await counts()).toEqual(before);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('a control character inside the email or the name (edges are trimmed when whitespace) is a 400 that writes nothing', async () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,10}$/);
    const spoiled = fc.oneof(
      fc.record({ email, name: fc.tuple(word, controlChar, word).map(([a, c, b]) => a + c + b) }),
      fc.record({
        email: fc.tuple(fc.oneof(controlChar, fc.constant('\u0000')), fc.nat(3)).map(([c, at]) => {
          const e = `spoiled-${Date.now()}-${++seq}@example.test`;
          // inside the address; at the very start only a NUL (not whitespace, so not trimmed away)
          const i = [3, e.indexOf('@'), e.indexOf('@') + 1, e.length - 2][at]!;
          return c === '\u0000' && at === 0 ? c + e : e.slice(0, i) + c + e.slice(i);
        }),
        name: fc.constant('Fine Name'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(spoiled, async (b) => {
        const before = await counts();
        const res = await checkedFetch(`${t.url}/api/v1/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...admin },
          body: JSON.stringify(b),
        });
        const text = await res.text();
        expect(res.status, text).toBe(400);
        expect(JSON.parse(text)).toEqual({ code: 400, message: expect.stringContaining('Bad request'), data: null });
        expect(await counts()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });
});
