import { describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, call, type TestServer, suiteServer } from '../../testing/harness.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { hashSecret, sha256Hex } from '../../crypto/secrets.ts';
import { ADMIN_SCOPES, STANDARD_OPERATOR_SCOPES, formatScopes } from '../../http/scopes.ts';
import { basicAuth, bearer, countRows, me, post, tokenRequest } from './auth.testkit.ts';

const alice = SANDBOX_CREDENTIALS.alice;
const aliceForm = { grant_type: 'client_credentials', client_id: alice.oauthClientId, client_secret: alice.oauthClientSecret };

/** A factory, not a fixture: an OAuth client for a test of its own. */
async function makeClient(t: TestServer, opts: { operatorId: string; scopes: readonly string[]; rateLimit?: number }) {
  const id = `client-${Math.random().toString(36).slice(2, 10)}`;
  const secret = `secret-${Math.random().toString(36).slice(2)}`;
  await t.ctx.database.db
    .insertInto('oauth_clients')
    .values({
      id,
      operator_id: opts.operatorId,
      name: 'test client',
      secret_hash: hashSecret(secret),
      scopes: opts.scopes.join(' '),
      rate_limit: opts.rateLimit ?? null,
      created_at: t.clock.now(),
      revoked_at: null,
    })
    .execute();
  return { id, secret };
}

describe.each(DIALECTS)('OAuth client credentials on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('issues a bearer token at top level, uncached, with the client scopes, stored only as a hash', async () => {
    const before = await countRows(t, 'access_tokens');
    const r = await tokenRequest(t, aliceForm);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      access_token: expect.stringMatching(/^vat_/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: formatScopes(STANDARD_OPERATOR_SCOPES),
    });
    expect(r.body).not.toHaveProperty('code');

    const rows = await t.ctx.database.db.selectFrom('access_tokens').selectAll().execute();
    expect(rows).toHaveLength(before + 1);
    const row = rows.find((x) => x.token_hash === sha256Hex(r.body.access_token!));
    expect(row).toMatchObject({ kind: 'oauth', credential_id: alice.oauthClientId, operator_id: OPERATOR_IDS.alice, expires_at: t.clock.now() + 3600_000 });
    expect(JSON.stringify(rows)).not.toContain(r.body.access_token);

    const who = await me(t, bearer(r.body.access_token!));
    expect(who.status).toBe(200);
    expect(who.body.data).toMatchObject({ userId: OPERATOR_IDS.alice, operatorEmail: alice.email, authMethod: 'oauth', admin: false, currency: 'USD' });
    expect(who.body.data.scopes).toEqual([...STANDARD_OPERATOR_SCOPES]);
  });

  it('accepts the client secret via HTTP Basic instead of the body', async () => {
    const r = await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: basicAuth(alice.oauthClientId, alice.oauthClientSecret) });
    expect(r.status).toBe(200);
    expect((await me(t, bearer(r.body.access_token!))).body.data.authMethod).toBe('oauth');
  });

  it('decodes form-encoded ids and secrets inside Basic', async () => {
    const c = await makeClient(t, { operatorId: OPERATOR_IDS.bob, scopes: STANDARD_OPERATOR_SCOPES });
    const odd = { ...c, secret: 'a b+c:d%e/f' };
    await t.ctx.database.db
      .updateTable('oauth_clients')
      .set({ secret_hash: hashSecret(odd.secret) })
      .where('id', '=', c.id)
      .execute();
    const r = await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: basicAuth(odd.id, odd.secret) });
    expect(r.status).toBe(200);
  });

  it('refuses credentials in both places at once (400 invalid_request)', async () => {
    const r = await tokenRequest(t, aliceForm, { authorization: basicAuth(alice.oauthClientId, alice.oauthClientSecret) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('answers a wrong secret with 401 invalid_client, challenging Basic only when Basic was used', async () => {
    const body = await tokenRequest(t, { ...aliceForm, client_secret: 'wrong' });
    expect(body.status).toBe(401);
    expect(body.body.error).toBe('invalid_client');
    expect(body.headers.get('www-authenticate')).toBeNull();

    const basic = await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: basicAuth(alice.oauthClientId, 'wrong') });
    expect(basic.status).toBe(401);
    expect(basic.body.error).toBe('invalid_client');
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);

    const unknown = await tokenRequest(t, { ...aliceForm, client_id: 'no-such-client' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(body.body);
  });

  it('refuses a client id that is not visible ASCII (a NUL, a control character) with 401 invalid_client before any lookup', async () => {
    const before = await countRows(t, 'audit_log');
    for (const body of [
      'grant_type=client_credentials&client_id=%00abc&client_secret=x',
      'grant_type=client_credentials&client_id=a%0Db&client_secret=x',
      'grant_type=client_credentials&client_id=caf%C3%A9&client_secret=x',
    ]) {
      const r = await tokenRequest(t, body);
      expect(r.status, r.text).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('www-authenticate')).toBeNull();
    }
    for (const id of ['\u0000abc', 'ab\u0007', `${alice.oauthClientId}\u0000`, 'a:b']) {
      const r = await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: basicAuth(id, alice.oauthClientSecret) });
      expect(r.status, r.text).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
    // a raw NUL inside the Basic payload (not percent-encoded)
    const raw = await tokenRequest(t, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from('\u0000abc:x').toString('base64')}` });
    expect([raw.status, raw.body.error]).toEqual([401, 'invalid_client']);
    expect(await countRows(t, 'audit_log')).toBe(before);
  });

  it('narrows to a requested subset, and the narrowed token is refused what it lacks', async () => {
    const c = await makeClient(t, { operatorId: OPERATOR_IDS.admin, scopes: ADMIN_SCOPES });
    const form = { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret };
    const narrow = await tokenRequest(t, { ...form, scope: 'orders:read machines:read' });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe('machines:read orders:read');
    expect((await me(t, bearer(narrow.body.access_token!))).body.data.scopes).toEqual(['machines:read', 'orders:read']);

    const account = { email: `narrow-${Date.now()}@example.test`, name: 'Narrow' };
    const refused = await post(t, '/api/v1/accounts', account, bearer(narrow.body.access_token!));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Insufficient scope');

    const full = await tokenRequest(t, form);
    expect(full.body.scope).toBe(formatScopes(ADMIN_SCOPES));
    expect((await post(t, '/api/v1/accounts', account, bearer(full.body.access_token!))).status).toBe(200);
  });

  it('refuses a scope the client does not hold, or an unknown one (400 invalid_scope)', async () => {
    for (const scope of ['accounts:admin', 'orders:read machines:build', 'everything']) {
      const r = await tokenRequest(t, { ...aliceForm, scope });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_scope');
    }
  });

  it('refuses other grants, a missing grant and non-form bodies', async () => {
    const other = await tokenRequest(t, { ...aliceForm, grant_type: 'password' });
    expect([other.status, other.body.error]).toEqual([400, 'unsupported_grant_type']);
    const { grant_type: _g, ...noGrant } = aliceForm;
    const missing = await tokenRequest(t, noGrant);
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const json = await call<{ error: string }>(t.url, 'POST', '/oauth/token', { json: aliceForm });
    expect([json.status, json.body.error]).toEqual([400, 'invalid_request']);
    const twice = await tokenRequest(t, `${new URLSearchParams(aliceForm).toString()}&grant_type=client_credentials`);
    expect([twice.status, twice.body.error]).toEqual([400, 'invalid_request']);
  });

  it('answers body-parser failures in OAuth form too, never in the envelope', async () => {
    const big = await tokenRequest(t, `grant_type=client_credentials&pad=${'x'.repeat(70_000)}`);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const charset = await tokenRequest(t, 'grant_type=client_credentials', { 'content-type': 'application/x-www-form-urlencoded; charset=utf-7' });
    expect(charset.status).toBe(415);
    expect(charset.body.error).toBe('invalid_request');
    const badJson = await call<{ error: string }>(t.url, 'POST', '/oauth/token', { headers: { 'content-type': 'application/json' }, body: '{"a' });
    expect([badJson.status, badJson.body.error]).toEqual([400, 'invalid_request']);
  });

  it('a token stops working when it expires', async () => {
    const r = await tokenRequest(t, aliceForm);
    const clock = t.clock as ManualClock;
    clock.advance(3600_000 - 1000);
    expect((await me(t, bearer(r.body.access_token!))).status).toBe(200);
    clock.advance(1000);
    const expired = await me(t, bearer(r.body.access_token!));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 401, message: 'Invalid API key', data: null });
  });

  it('a token dies with its client: revoking the client revokes its tokens, and the revoked client gets no new ones', async () => {
    const c = await makeClient(t, { operatorId: OPERATOR_IDS.bob, scopes: STANDARD_OPERATOR_SCOPES });
    const form = { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret };
    const r = await tokenRequest(t, form);
    expect((await me(t, bearer(r.body.access_token!))).status).toBe(200);
    await t.ctx.database.db.updateTable('oauth_clients').set({ revoked_at: t.clock.now() }).where('id', '=', c.id).execute();
    expect((await me(t, bearer(r.body.access_token!))).status).toBe(401);
    expect((await tokenRequest(t, form)).body.error).toBe('invalid_client');
  });

  it("applies the client's own rate limit to its tokens' requests (issuance included)", async () => {
    const c = await makeClient(t, { operatorId: OPERATOR_IDS.bob, scopes: STANDARD_OPERATOR_SCOPES, rateLimit: 3 });
    const form = { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret };
    const r = await tokenRequest(t, form); // 1 of 3
    expect(r.status).toBe(200);
    expect((await me(t, bearer(r.body.access_token!))).status).toBe(200); // 2
    expect((await me(t, bearer(r.body.access_token!))).status).toBe(200); // 3
    const over = await me(t, bearer(r.body.access_token!));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
    const again = await tokenRequest(t, form);
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('rate_limited');
    expect(again.headers.get('retry-after')).toBe('3600');
    // alice's client, on the default budget, is unaffected
    expect((await tokenRequest(t, aliceForm)).status).toBe(200);
  });

  it('records each issuance in the audit log against the client', async () => {
    await tokenRequest(t, aliceForm);
    const rows = await t.ctx.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'oauth.token').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.at(-1)).toMatchObject({ key_id: alice.oauthClientId, user_id: OPERATOR_IDS.alice, resource: `oauth_client:${alice.oauthClientId}` });
  });

  it('documents the endpoint as form-encoded and unenveloped in /openapi.json', async () => {
    const doc = await call<{ paths: Record<string, Record<string, { requestBody: { content: Record<string, unknown> } }>> }>(t.url, 'GET', '/openapi.json');
    expect(Object.keys(doc.body.paths['/oauth/token']!['post']!.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
  });
});
