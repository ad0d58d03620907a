import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UnsecuredJWT } from 'jose';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, startTestServer, type TestServer } from '../../testing/harness.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { ADMIN_SCOPES, STANDARD_OPERATOR_SCOPES } from '../../http/scopes.ts';
import { bearer, countRows, login, me, post, startIssuer, totpAt, type Challenge, type Session, type TestIssuer } from './auth.testkit.ts';

const alice = SANDBOX_CREDENTIALS.alice;
const AUDIENCE = 'vend-operator-api';

describe.each(DIALECTS)('identity-provider JWTs and social sign-in on %s', (dialect) => {
  let idp: TestIssuer;
  let social: TestIssuer;
  let t: TestServer;
  let now: () => number;

  beforeAll(async () => {
    [idp, social] = await Promise.all([startIssuer('pool'), startIssuer('social')]);
    t = await startTestServer(dialect, {
      env: {
        IDP_ISSUER: idp.issuer,
        IDP_JWKS_URL: idp.jwksUrl,
        IDP_AUDIENCE: AUDIENCE,
        SOCIAL_ISSUER: social.issuer,
        SOCIAL_JWKS_URL: social.jwksUrl,
        SOCIAL_AUDIENCE: 'social-client',
      },
    });
    now = () => t.clock.now();
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([idp.close(), social.close()]);
  });

  const aliceClaims = () => ({ sub: 'user-alice', email: alice.email, aud: AUDIENCE });

  it('a pool JWT for an existing operator authenticates with authMethod jwt and the operator’s full scopes', async () => {
    const r = await me(t, bearer(await idp.sign(aliceClaims(), now())));
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      userId: OPERATOR_IDS.alice,
      operatorEmail: alice.email,
      admin: false,
      scopes: [...STANDARD_OPERATOR_SCOPES],
      authMethod: 'jwt',
      currency: 'USD',
    });
  });

  it('a JWT whose sub or email holds a NUL is 401, and a write with it never reaches the store (PostgreSQL cannot hold NUL)', async () => {
    const admin = SANDBOX_CREDENTIALS.admin.email;
    const before = await countRows(t, 'operators');
    for (const claims of [
      { sub: 'user\u0000admin', email: admin, aud: AUDIENCE },
      { sub: 'user-admin', email: `${admin}\u0000`, aud: AUDIENCE },
    ]) {
      const token = await idp.sign(claims, now());
      const w = await post(t, '/api/v1/accounts', { email: `jwt-nul-${Date.now()}@example.test`, name: 'Via JWT' }, bearer(token));
      expect(w.status, w.text).toBe(401);
      expect(w.body).toEqual({ code: 401, message: 'Invalid API key', data: null });
    }
    expect(await countRows(t, 'operators')).toBe(before);
  });

  it('an admin JWT holds every scope and no currency', async () => {
    const r = await me(t, bearer(await idp.sign({ sub: 'user-admin', email: SANDBOX_CREDENTIALS.admin.email, aud: AUDIENCE }, now())));
    expect(r.body.data).toMatchObject({ admin: true, currency: null, scopes: [...ADMIN_SCOPES] });
  });

  it("a scope claim narrows to its intersection with the operator's scopes", async () => {
    const r = await me(t, bearer(await idp.sign({ ...aliceClaims(), scope: 'openid orders:read accounts:admin' }, now())));
    expect(r.body.data.scopes).toEqual(['orders:read']);
    const narrowed = await post(
      t,
      '/api/v1/accounts',
      { email: 'x@example.test', name: 'X' },
      bearer(await idp.sign({ sub: 'user-admin', email: SANDBOX_CREDENTIALS.admin.email, aud: AUDIENCE, scope: 'orders:read' }, now())),
    );
    expect(narrowed.status).toBe(403);
  });

  it('a user-pool access token (no aud, client_id, username as email) is accepted', async () => {
    const r = await me(t, bearer(await idp.sign({ sub: 'user-alice', client_id: AUDIENCE, username: alice.email, token_use: 'access' }, now())));
    expect(r.status).toBe(200);
    expect(r.body.data.operatorEmail).toBe(alice.email);
  });

  it.each([
    ['a wrong issuer', async () => idp.sign({ ...aliceClaims(), iss: 'https://evil.idp.test/pool' }, now())],
    ['a wrong audience', async () => idp.sign({ ...aliceClaims(), aud: 'someone-else' }, now())],
    ['no audience at all', async () => idp.sign({ sub: 'user-alice', email: alice.email }, now())],
    ['an expired token', async () => idp.sign(aliceClaims(), now() - 3600_000, { ttlSeconds: 600 })],
    ['a bad signature (another key, same kid)', async () => idp.sign(aliceClaims(), now(), { rogue: true })],
    ['an unknown email', async () => idp.sign({ ...aliceClaims(), email: 'stranger@example.test' }, now())],
    ['an unverified email', async () => idp.sign({ ...aliceClaims(), email_verified: false }, now())],
    ['no subject', async () => idp.sign({ email: alice.email, aud: AUDIENCE }, now())],
    ['the social issuer’s token', async () => social.sign({ ...aliceClaims(), aud: 'social-client' }, now())],
    ['an unsigned token', async () => new UnsecuredJWT({ ...aliceClaims(), iss: idp.issuer }).setExpirationTime('10m').encode()],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = (await idp.sign(aliceClaims(), now())).split('.');
        const p = Buffer.from(
          JSON.stringify({ ...aliceClaims(), iss: idp.issuer, email: SANDBOX_CREDENTIALS.admin.email, exp: Math.floor(now() / 1000) + 600 }),
        ).toString('base64url');
        return `${h}.${p}.${s}`;
      },
    ],
  ])('refuses %s with 401', async (_name, make) => {
    const r = await me(t, bearer(await make()));
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: 401, message: 'Invalid API key', data: null });
  });

  it('expiry follows the service clock, with 30 s of tolerated skew', async () => {
    const token = await idp.sign(aliceClaims(), now(), { ttlSeconds: 60 });
    const clock = t.clock as ManualClock;
    clock.advance(60_000 + 29_000);
    expect((await me(t, bearer(token))).status).toBe(200);
    clock.advance(2_000);
    expect((await me(t, bearer(token))).status).toBe(401);
  });

  it('garbage bearer tokens are a 401, never a 5xx', async () => {
    const segment = fc.string({ maxLength: 60 }).map((s) => Buffer.from(s).toString('base64url'));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(segment, segment, segment).map((p) => p.join('.')),
          fc.stringMatching(/^[\x21-\x7e]{1,200}$/),
        ),
        async (token) => {
          const r = await me(t, bearer(token));
          expect(r.status).toBe(401);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('social sign-in starts the same MFA challenge, which completes to a session', async () => {
    const idToken = await social.sign({ sub: 'google-123', email: alice.email, email_verified: true, aud: 'social-client' }, now());
    const r = await post<Challenge>(t, '/api/v1/auth/login/social', { idToken });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery_code'], operator: { email: alice.email } });
    const ticket = await t.ctx.database.db.selectFrom('mfa_tickets').select('auth_method').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(ticket.auth_method).toBe('social');
    const s = await post<Session>(t, '/api/v1/auth/mfa/verify', { ticket: r.body.data.ticket, code: totpAt(alice.totpSecret, now()) });
    expect(s.status).toBe(200);
    expect((await me(t, bearer(s.body.data.token))).body.data.authMethod).toBe('session');
  });

  it('social sign-in never creates an account and refuses tokens it cannot trust', async () => {
    const operators = await countRows(t, 'operators');
    const tickets = await countRows(t, 'mfa_tickets');
    for (const idToken of [
      await social.sign({ sub: 'google-999', email: 'newcomer@example.test', aud: 'social-client' }, now()),
      await social.sign({ sub: 'google-123', email: alice.email, aud: 'social-client' }, now(), { rogue: true }),
      await social.sign({ sub: 'google-123', email: alice.email, aud: 'another-app' }, now()),
      await idp.sign({ ...aliceClaims(), aud: 'social-client' }, now()),
      'not-a-jwt',
    ]) {
      const r = await post(t, '/api/v1/auth/login/social', { idToken });
      expect(r.status).toBe(401);
    }
    expect(await countRows(t, 'operators')).toBe(operators);
    expect(await countRows(t, 'mfa_tickets')).toBe(tickets);
    expect((await post(t, '/api/v1/auth/login/social', {})).status).toBe(400);
  });

  it('password sign-in is unaffected by the JWT configuration', async () => {
    expect((await login(t, alice.email, alice.password)).mfaRequired).toBe(true);
  });
});

describe.each(DIALECTS)('JWT configuration edges on %s', (dialect) => {
  let t: TestServer;
  let idp: TestIssuer;
  let dead: http.Server;
  beforeAll(async () => {
    idp = await startIssuer('pool');
    // a JWKS endpoint that answers 500: the issuer is unavailable, not the token wrong
    dead = http.createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/jwks.json`;
    t = await startTestServer(dialect, { env: { IDP_ISSUER: idp.issuer, IDP_JWKS_URL: deadUrl } });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
    await new Promise<void>((resolve) => dead.close(() => resolve()));
  });

  it('an unreachable key set is 503, not a 401 that blames the caller', async () => {
    const r = await me(t, bearer(await idp.sign({ sub: 'user-alice', email: alice.email }, t.clock.now())));
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: 503, message: 'Identity provider unavailable', data: null });
  });

  it('social sign-in without a configured issuer is 503', async () => {
    const r = await post(t, '/api/v1/auth/login/social', { idToken: await idp.sign({ sub: 'x', email: alice.email }, t.clock.now()) });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: 503, message: 'Social sign-in not configured', data: null });
    expect((await post(t, '/api/v1/auth/login/social', {})).status).toBe(503);
  });
});

describe.each(DIALECTS)('no identity provider configured on %s', (dialect) => {
  let t: TestServer;
  let idp: TestIssuer;
  beforeAll(async () => {
    idp = await startIssuer('pool');
    t = await startTestServer(dialect);
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('a JWT bearer is just an invalid credential', async () => {
    expect((await me(t, bearer(await idp.sign({ sub: 'user-alice', email: alice.email }, t.clock.now())))).status).toBe(401);
  });
});
