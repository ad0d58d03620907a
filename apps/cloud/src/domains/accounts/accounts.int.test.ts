import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { hashSecret } from '../../crypto/secrets.ts';
import { STANDARD_OPERATOR_SCOPES, formatScopes } from '../../http/scopes.ts';
import { countRows } from '../auth/auth.testkit.ts';

const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };

interface Account {
  id: string;
  email: string;
  name: string;
  admin: boolean;
  currency: string | null;
  passwordSet: boolean;
  createdAt: string;
  apiKey: { id: string; key: string; scopes: string[]; rateLimit: number };
}

let seq = 0;
const newEmail = () => `operator-${Date.now()}-${++seq}@example.test`;

describe.each(DIALECTS)('POST /api/v1/accounts on %s', (dialect) => {
  let t: TestServer;
  const create = (json: unknown, headers: Record<string, string> = admin) => call<Body<Account>>(t.url, 'POST', '/api/v1/accounts', { json, headers });

  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  it('creates an operator with a standard API key shown once, stored only hashed, and audited', async () => {
    const email = newEmail();
    const r = await create({ email: email.toUpperCase(), name: '  Carol Kiosks  ', password: 'carol-password-1' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.data).toEqual({
      id: expect.stringMatching(/^op_/),
      email,
      name: 'Carol Kiosks',
      admin: false,
      currency: 'USD',
      passwordSet: true,
      createdAt: expect.any(String),
      apiKey: {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        key: expect.stringMatching(/^vk_[0-9a-f]{16}\./),
        scopes: [...STANDARD_OPERATOR_SCOPES],
        rateLimit: 1000,
      },
    });
    const { key, id: keyId } = r.body.data.apiKey;
    const secret = key.split('.')[1]!;

    const db = t.ctx.database.db;
    const op = await db.selectFrom('operators').selectAll().where('id', '=', r.body.data.id).executeTakeFirstOrThrow();
    expect(op.password_hash).toMatch(/^scrypt\$/);
    expect(op.password_hash).not.toContain('carol-password-1');
    const keyRow = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(keyRow).toMatchObject({ operator_id: op.id, scopes: formatScopes(STANDARD_OPERATOR_SCOPES) });
    expect(keyRow.secret_hash).not.toContain(secret);

    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'accounts.create').execute();
    expect(audit.at(-1)).toMatchObject({ key_id: '5bada0000000a001', user_id: OPERATOR_IDS.admin, resource: `operator:${op.id}` });

    // the key works, as the new operator
    const who = await call<Body<{ userId: string; operatorEmail: string; scopes: string[]; authMethod: string; admin: boolean }>>(
      t.url,
      'GET',
      '/api/v1/auth/me',
      {
        headers: { 'x-api-key': key },
      },
    );
    expect(who.body.data).toMatchObject({ userId: op.id, operatorEmail: email, authMethod: 'api_key', admin: false, scopes: [...STANDARD_OPERATOR_SCOPES] });

    // and the password signs in, to MFA enrolment
    const signIn = await call<Body<{ mfaEnrollmentRequired: boolean }>>(t.url, 'POST', '/api/v1/auth/login', { json: { email, password: 'carol-password-1' } });
    expect(signIn.body.data.mfaEnrollmentRequired).toBe(true);
  });

  it('an account without a password cannot sign in by password', async () => {
    const email = newEmail();
    const r = await create({ email, name: 'No Password' });
    expect(r.body.data.passwordSet).toBe(false);
    expect((await call(t.url, 'POST', '/api/v1/auth/login', { json: { email, password: 'anything-really' } })).status).toBe(401);
  });

  it('a duplicate email (in any case) is 409 and writes nothing', async () => {
    const email = newEmail();
    expect((await create({ email, name: 'First' })).status).toBe(200);
    const before = await t.ctx.database.db.selectFrom('api_keys').select('id').execute();
    const dup = await create({ email: email.toUpperCase(), name: 'Second' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 409, message: 'An account with this email already exists', data: null });
    expect(await t.ctx.database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(before.length);
    const seeded = await create({ email: SANDBOX_CREDENTIALS.alice.email, name: 'Alice again' });
    expect(seeded.status).toBe(409);
  });

  it('concurrent creates of one email: exactly one wins, the rest are 409', async () => {
    const email = newEmail();
    const results = await Promise.all(Array.from({ length: 5 }, () => create({ email, name: 'Race' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('needs the accounts:admin scope (403), and a credential (401)', async () => {
    const r = await create({ email: newEmail(), name: 'Nope' }, alice);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 403, message: 'Insufficient scope', data: null });
    expect((await create({ email: newEmail(), name: 'Nope' }, {})).status).toBe(401);
  });

  it('a reseller key (accounts:admin, not admin) creates operators but not admins', async () => {
    await t.ctx.database.db
      .insertInto('api_keys')
      .values({
        id: '00000000000a5e11',
        operator_id: OPERATOR_IDS.bob,
        name: 'reseller key',
        secret_hash: hashSecret('reseller-secret-1'),
        scopes: 'accounts:admin',
        rate_limit: null,
        plant: null,
        created_at: t.clock.now(),
        revoked_at: null,
      })
      .execute();
    const reseller = { 'x-api-key': 'vk_00000000000a5e11.reseller-secret-1' };
    expect((await create({ email: newEmail(), name: 'Resold', currency: 'EUR' }, reseller)).body.data).toMatchObject({ currency: 'EUR', admin: false });
    const adminTry = await create({ email: newEmail(), name: 'Sneaky', admin: true }, reseller);
    expect(adminTry.status).toBe(403);
    const byAdmin = await create({ email: newEmail(), name: 'Real Admin', admin: true });
    expect(byAdmin.body.data).toMatchObject({ admin: true, currency: null });
  });

  it.each([
    [400, { name: 'No email' }],
    [400, { email: 'not-an-email', name: 'X' }],
    [400, { email: newEmail(), name: '' }],
    [400, { email: newEmail(), name: 'x'.repeat(101) }],
    [400, { email: newEmail(), name: 'Short pw', password: 'short' }],
    [400, { email: newEmail(), name: 'Bad currency', currency: 'usd' }],
    [400, { email: newEmail(), name: 'a\u0000b' }],
    [400, { email: newEmail(), name: 'line\nbreak' }],
    [400, { email: newEmail(), name: 'esc\u001b[0m' }],
    [400, { email: newEmail(), name: 'lone \ud800 surrogate' }],
    [400, { email: 'x1\u0000@example.com', name: 'X' }],
    [400, { email: '\u0000x1@example.com', name: 'X' }],
    [422, { email: newEmail(), name: 'X', admin: 'yes' }],
    [422, { email: 42, name: 'X' }],
    [422, ['an', 'array']],
  ])('refuses a bad body with %i, writing nothing', async (status, body) => {
    const before = await Promise.all((['operators', 'api_keys', 'audit_log'] as const).map((x) => countRows(t, x)));
    const r = await create(body);
    expect(r.status, r.text).toBe(status);
    expect(r.body).toMatchObject({ code: status, data: null });
    expect(await Promise.all((['operators', 'api_keys', 'audit_log'] as const).map((x) => countRows(t, x)))).toEqual(before);
  });

  it('refuses a NUL in the name (the audit case) with 400 naming the field', async () => {
    const r = await create({ email: 'x1@example.com', name: 'a\u0000b' });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ code: 400, message: expect.stringMatching(/^Bad request — invalid or missing parameters: body\.name: /), data: null });
  });

  it('trims the email as it does the name', async () => {
    const email = newEmail();
    const r = await create({ email: `  ${email}  `, name: 'Spaced' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.email).toBe(email);
  });
});
