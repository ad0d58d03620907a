import { afterAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from './scopes.ts';
import { startTestServer } from '../testing/harness.ts';
import {
  bodiesOf,
  breach,
  eachScopeLeftOut,
  everyScopeBut,
  KeyMint,
  malformed,
  operationsOf,
  OVERSIZED_JSON,
  pathOf,
  send,
  type Answer,
  type Operation,
  type Probe,
} from './api-contract.test-support.ts';

/**
 * Issue 10: what the document declares is what the service enforces, tried as a hostile client would.
 * Every rule below is read from `/openapi.json` of a real listening server — who may call each
 * operation (`security`) and what it may answer (`responses`) — and checked against the service:
 * no credential → 401; a credential lacking the declared scopes (or not admin) → 403, whatever it names
 * and sends (the scope is the route's first answer after the budget, before 404 or 422); a credential
 * holding exactly them → neither (for some request the document describes: with `oneOf` bodies the
 * scope may depend on the body); and to every probe (no or wrong credential, an unknown or malformed
 * path parameter, a malformed query value, an oversized, mis-encoded, empty or malformed body) a
 * status the operation declares (or 2xx/3xx), with the declared message form.
 *
 * SQLite only: this checks the HTTP layer (guards, parsers, the document), which is the same code on
 * every store; the PostgreSQL leg would double about a thousand requests and test nothing new.
 */
const t = await startTestServer('sqlite');
afterAll(async () => t.close());
const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as Record<string, unknown>;
const OPERATIONS = operationsOf(doc);
const mint = new KeyMint(t.ctx.database.db);

/**
 * Values of the sandbox data set (docs/sandbox.md) for a request on something the caller owns:
 * alice's machine and its first aisle (the minted non-admin keys are alice's). Used for path
 * parameters and body properties of these names; anything else gets a well-formed value naming nothing.
 */
const ALICE_OWN = { machineNo: 'SBX-ALICE-0001', aisleNo: '1' };

/** Requests on the caller's own resources, one per body the document describes (none: one without a body). */
function ownRequests(op: Operation): Probe[] {
  const path = pathOf(op, ALICE_OWN);
  const bodies = bodiesOf(op, ALICE_OWN);
  if (bodies.length === 0) return [{ why: 'no body', path }];
  return bodies.map((b) => ({ why: `body ${JSON.stringify(b)}`, path, body: JSON.stringify(b), headers: { 'content-type': 'application/json' } }));
}

/** The credential that should pass the operation's access rule: exactly its (first) declared scopes, an admin, or the cabinets' fleet secret. */
async function admitted(op: Operation): Promise<Record<string, string>> {
  switch (op.access.kind) {
    case 'scopes': {
      const scopes = op.access.alternatives[0] ?? [];
      return mint.headers(scopes, { factory: scopes.includes('machines:build') });
    }
    case 'admin':
      return mint.headers([], { admin: true });
    case 'other':
      return op.access.schemes.includes('fleetSecret') ? { secret: t.ctx.config.fleetSecret ?? '' } : {};
    case 'public':
      return {};
  }
}

/** Each request with a fresh credential from `credential`, answered. */
async function answers(op: Operation, requests: Probe[], credential: () => Promise<Record<string, string>>): Promise<{ probe: Probe; a: Answer }[]> {
  const out: { probe: Probe; a: Answer }[] = [];
  for (const r of requests) {
    const probe = { ...r, headers: { ...r.headers, ...(await credential()) } };
    out.push({ probe, a: await send(t.url, op, probe) });
  }
  return out;
}

const describeAnswer = ({ probe, a }: { probe: Probe; a: Answer }) => `${probe.why} → ${a.status} ("${a.message}")`;

/** Every answer must be one the document allows: a declared status, with the declared message form. */
function expectDeclared(op: Operation, got: { probe: Probe; a: Answer }[]): void {
  const breaches = got.flatMap(({ probe, a }) => {
    const why = breach(op, a);
    return why ? [`${probe.why}: ${why}`] : [];
  });
  expect(breaches, `${op.label}:\n  ${breaches.join('\n  ')}`).toEqual([]);
}

/**
 * Requests the access rule must refuse before anything else looks at them (issue 31: the route's declared
 * scope is checked before its input is parsed and before the service looks anything up): the caller's own
 * resources, resources that do not exist (404 is a service's answer, 403 the route's), and a body of the
 * wrong type (422 is the parser's). A scope checked only in the service would let the last two through.
 */
function refusedRequests(op: Operation): Probe[] {
  const probes = [...ownRequests(op)];
  if (op.params.some((p) => p.in === 'path')) probes.push({ why: 'unknown path values', path: pathOf(op) });
  if (op.takesBody)
    probes.push({ why: 'a JSON array for a body', path: pathOf(op, ALICE_OWN), body: '[1,2,3]', headers: { 'content-type': 'application/json' } });
  return probes;
}

/** Every request must be refused with 403 (and the 403 must be declared). */
async function expectRefused(op: Operation, scopes: readonly Scope[], opts: { admin?: boolean } = {}): Promise<void> {
  const got = await answers(op, refusedRequests(op), () => mint.headers(scopes, opts));
  const admitted = got.filter(({ a }) => a.status !== 403).map(describeAnswer);
  expect(admitted, `${op.label} with [${scopes.join(' ')}]: wanted 403; got ${admitted.join('; ')}`).toEqual([]);
  expectDeclared(op, got);
}

/**
 * Some request must get past authentication and authorisation (neither 401 nor 403). A key holding
 * `machines:build` is the factory's, bound to its plant: that scope exists for factory keys only.
 */
async function expectAdmitted(op: Operation, scopes: readonly Scope[], opts: { admin?: boolean } = {}): Promise<void> {
  const factory = scopes.includes('machines:build');
  const got = await answers(op, ownRequests(op), () => mint.headers(scopes, { ...opts, factory }));
  expect(
    got.some(({ a }) => a.status !== 401 && a.status !== 403),
    `${op.label} with exactly [${scopes.join(' ')}]: wanted neither 401 nor 403 for some request; got ${got.map(describeAnswer).join('; ')}`,
  ).toBe(true);
  expectDeclared(op, got);
}

describe('the API document', () => {
  it('lists the operations the service routes, each with an operationId and an error response', () => {
    expect(OPERATIONS.length).toBe(t.ctx.docs.list().length);
    for (const op of OPERATIONS) {
      expect(op.operationId, op.label).toMatch(/^[A-Za-z0-9]+$/);
      expect(
        [...op.declared].some((s) => s >= 400 && s < 500),
        op.label,
      ).toBe(true);
    }
    expect(new Set(OPERATIONS.map((o) => o.operationId)).size).toBe(OPERATIONS.length);
  });
});

describe.each(OPERATIONS.map((op) => [op.label, op] as const))('%s', (_label, op) => {
  const access = op.access;

  if (access.kind !== 'public') {
    it('refuses a call with no credential (401)', async () => {
      const got = await answers(op, ownRequests(op), async () => ({}));
      const admitted = got.filter(({ a }) => a.status !== 401).map(describeAnswer);
      expect(admitted, `${op.label}: wanted 401; got ${admitted.join('; ')}`).toEqual([]);
      expectDeclared(op, got);
    });
  }

  if (access.kind === 'scopes' && access.alternatives.some((s) => s.length > 0)) {
    const declared = access.alternatives.map((s) => s.join(' + ')).join(' | ');
    it(`refuses a credential holding every scope but ${declared} (403)`, async () => {
      await expectRefused(op, everyScopeBut(access.alternatives));
    });
    it.each(eachScopeLeftOut(access.alternatives))('refuses a credential lacking $missing (403)', async ({ scopes }) => {
      await expectRefused(op, scopes);
    });
  }

  if (access.kind === 'scopes') {
    it.each(access.alternatives.map((s) => [s.join(' + ') || 'no scope', s] as const))(
      'admits a credential holding exactly %s to its own resources (neither 401 nor 403)',
      async (_name, scopes) => {
        await expectAdmitted(op, scopes);
      },
    );
  }

  if (access.kind === 'admin') {
    it('refuses a non-admin credential holding every scope (403)', async () => {
      await expectRefused(op, SCOPES);
    });
    it('admits an admin credential with no scope (neither 401 nor 403)', async () => {
      await expectAdmitted(op, [], { admin: true });
    });
  }

  const pathParams = op.params.filter((p) => p.in === 'path');
  if (pathParams.length) {
    it('answers declared statuses to unknown and malformed path parameters', async () => {
      const requests: Probe[] = [{ why: 'unknown path values', path: pathOf(op) }];
      for (const p of pathParams) {
        const path = (value: string) => pathOf(op, { ...ALICE_OWN, [p.name]: value });
        requests.push({ why: `${p.name} not valid percent-encoding`, path: path('%E0%A4%A') });
        // an empty segment is another path (another route or none), not a value of this parameter
        for (const bad of malformed(p.schema).filter((b) => b.value !== ''))
          requests.push({ why: `${p.name} ${bad.why}`, path: path(encodeURIComponent(bad.value)) });
      }
      expectDeclared(op, await answers(op, requests, () => admitted(op)));
    });
  }

  const queryParams = op.params.filter((p) => p.in === 'query');
  if (queryParams.length) {
    it('answers declared statuses to malformed query values', async () => {
      const path = pathOf(op, ALICE_OWN);
      const requests: Probe[] = [];
      for (const p of queryParams) {
        for (const bad of malformed(p.schema)) requests.push({ why: `?${p.name} ${bad.why}`, path, query: { [p.name]: bad.value } });
        requests.push({ why: `?${p.name} given twice`, path, rawQuery: `${p.name}=1&${p.name}=2` });
      }
      expectDeclared(op, await answers(op, requests, () => admitted(op)));
    });
  }

  it('answers declared statuses to hostile bodies: oversized, mis-encoded, empty, not JSON, the wrong type', async () => {
    const path = pathOf(op, ALICE_OWN);
    const body = (why: string, content: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Probe => ({
      why,
      path,
      body: content,
      headers,
    });
    // the body parsers read a body whatever the method: every operation is probed
    const requests: Probe[] = [
      body('an oversized JSON body', OVERSIZED_JSON),
      body('an oversized form body', `padding=${'x'.repeat(70 * 1024)}`, { 'content-type': 'application/x-www-form-urlencoded' }),
      body('a latin-1 body', '{}', { 'content-type': 'application/json; charset=latin1' }),
      body('an unknown content-encoding', '{}', { 'content-type': 'application/json', 'content-encoding': 'x-unknown' }),
      body('a body that is not JSON', '{"unterminated'),
      body('a JSON string for a body', '"text"'),
    ];
    if (op.takesBody || ['post', 'put', 'patch'].includes(op.method)) {
      requests.push(body('an empty body', '', { 'content-type': op.bodyType ?? 'application/json' }), body('a JSON array for a body', '[1,2,3]'));
    }
    expectDeclared(op, await answers(op, requests, () => admitted(op)));
  });
});
