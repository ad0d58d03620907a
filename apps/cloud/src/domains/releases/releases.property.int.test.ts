import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ReleaseManifest } from '@vend/protocol';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { ADMIN, OTHER_KEY, PREFIX, clearReleases, countRows, manifest, publishAll } from './releases.test-support.ts';

/**
 * Random manifests thrown at POST /api/v1/agent/releases: every one is refused with a 4xx, never a
 * 5xx, and nothing is written (no release, no audit record). Each generated body starts from a
 * manifest that is wrong for a reason a random edit cannot repair (a foreign signature, a broken
 * rule, a version already published with other bytes), or is arbitrary JSON.
 */

/** Manifests that must be refused, each for a different rule. */
const broken: Record<string, () => ReleaseManifest> = {
  foreignKey: () => manifest('3.0.0', { secretKey: OTHER_KEY.secretKey }),
  outsidePrefix: () => manifest('3.0.0', { url: 'https://elsewhere.example.com/agent/a.tar.gz' }),
  floorNotBelow: () => manifest('3.0.0', { minFrom: '3.0.0' }),
  rungMissing: () => manifest('3.0.0', { minFrom: '2.5.0' }),
  immutable: () => manifest('1.0.0', { sha256: 'e'.repeat(64) }),
};

const FIELDS = ['version', 'sha256', 'size', 'url', 'migration', 'minFrom', 'signature', 'signatureAlg'] as const;

const nasty = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'line\nbreak',
    '\ud800',
    '1.0.0\n',
    '9999999999.0',
    '1.0.0.0.0',
    '-1',
    'NaN',
    'https://artifacts.sandbox.vend.test/agent/../x',
    `${PREFIX}\u0000`,
    'http://artifacts.sandbox.vend.test/agent/a.tar.gz',
    'A'.repeat(88),
    '='.repeat(88),
    'x'.repeat(5000),
    'ED25519',
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
);

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), field: fc.constantFrom(...FIELDS), value: nasty }),
  fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...FIELDS) }),
  fc.record({
    kind: fc.constant('add' as const),
    field: fc.constantFrom('allowDowngrade', 'target', 'isFinalStep', 'reason', '__proto__', 'constructor', 'extra'),
    value: nasty,
  }),
);

const body = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ base: fc.constantFrom(...Object.keys(broken)), mutations: fc.array(mutation, { maxLength: 3 }) }).map(({ base, mutations }) => {
      const m: Record<string, unknown> = { ...broken[base]!() };
      for (const mu of mutations) {
        if (mu.kind === 'drop') delete m[mu.field];
        else m[mu.field] = mu.value;
      }
      return JSON.stringify(m);
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
);

describe.each(DIALECTS)('POST /api/v1/agent/releases with random manifests on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    await clearReleases(t);
    await publishAll(t, '1.0.0', '2.0.0');
  });
  afterAll(async () => {
    await t.close();
  });

  it('always answers 4xx, never 5xx, and writes nothing', async () => {
    const before = await countRows(t);
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const r = await call(t.url, 'POST', '/api/v1/agent/releases', { headers: { ...ADMIN, 'content-type': 'application/json' }, body: text });
        expect(r.status, `${r.status} for ${text.slice(0, 300)}: ${r.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.text).not.toMatch(/at .*\.ts:\d+/);
      }),
      { numRuns: 120 },
    );
    expect(await countRows(t)).toEqual(before);
  }, 120_000);

  it('each unmodified broken manifest is refused for its own reason', async () => {
    const expected: Record<string, [number, RegExp]> = {
      foreignKey: [400, /signature/],
      outsidePrefix: [400, /prefix/],
      floorNotBelow: [400, /must be below/],
      rungMissing: [400, /publish the rung first/],
      immutable: [409, /immutable/],
    };
    for (const [name, make] of Object.entries(broken)) {
      const r = await call<{ message: string }>(t.url, 'POST', '/api/v1/agent/releases', { headers: ADMIN, json: make() });
      expect([r.status, r.body.message], name).toEqual([expected[name]![0], expect.stringMatching(expected[name]![1])]);
    }
  });
});
