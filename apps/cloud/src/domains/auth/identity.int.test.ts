import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { type Body } from '../../testing/answers.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { ADMIN_SCOPES, FACTORY_SCOPES, STANDARD_OPERATOR_SCOPES } from '../../http/scopes.ts';
import { me } from './auth.testkit.ts';

const c = SANDBOX_CREDENTIALS;

interface Credentials {
  apiKeys: { id: string; name: string; key: string; scopes: string[]; rateLimit: number; plant: string | null; createdAt: string; revoked: boolean }[];
  oauthClients: { clientId: string; name: string; clientSecret: string; scopes: string[]; rateLimit: number; createdAt: string; revoked: boolean }[];
}

describe.each(DIALECTS)('who am I and my credentials on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('/auth/me with an API key: operator, scopes, authMethod api_key and currency', async () => {
    const r = await me(t, { 'x-api-key': c.alice.apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      code: 200,
      message: 'success',
      data: {
        userId: OPERATOR_IDS.alice,
        operatorEmail: c.alice.email,
        admin: false,
        scopes: [...STANDARD_OPERATOR_SCOPES],
        authMethod: 'api_key',
        currency: 'USD',
      },
    });
    expect((await me(t, { 'x-api-key': c.bob.apiKey })).body.data.currency).toBe('GBP');
  });

  it('/auth/me for a full admin has no currency; a factory key shows its own narrow scopes', async () => {
    expect((await me(t, { 'x-api-key': c.admin.apiKey })).body.data).toMatchObject({ admin: true, currency: null, scopes: [...ADMIN_SCOPES] });
    expect((await me(t, { 'x-api-key': c.factory.apiKey })).body.data.scopes).toEqual([...FACTORY_SCOPES]);
  });

  it('/auth/me and /auth/credentials need a credential', async () => {
    expect((await call(t.url, 'GET', '/api/v1/auth/me')).status).toBe(401);
    expect((await call(t.url, 'GET', '/api/v1/auth/credentials')).status).toBe(401);
    expect((await me(t, { 'x-api-key': `${c.alice.apiKey}x` })).status).toBe(401);
  });

  it("lists the operator's own API keys and OAuth clients, masked, with scopes and rate limits", async () => {
    const r = await call<Body<Credentials>>(t.url, 'GET', '/api/v1/auth/credentials', { headers: { 'x-api-key': c.alice.apiKey } });
    expect(r.status).toBe(200);
    expect(r.body.data.apiKeys).toEqual([
      {
        id: '5ba11ce00000a001',
        name: 'sandbox operator key',
        key: 'vk_5ba11ce00000a001.••••••••',
        scopes: [...STANDARD_OPERATOR_SCOPES],
        rateLimit: 1000,
        plant: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/),
        revoked: false,
      },
    ]);
    expect(r.body.data.oauthClients).toEqual([
      {
        clientId: c.alice.oauthClientId,
        name: 'sandbox OAuth client',
        clientSecret: '••••••••',
        scopes: [...STANDARD_OPERATOR_SCOPES],
        rateLimit: 1000,
        createdAt: expect.any(String),
        revoked: false,
      },
    ]);
  });

  it('never shows a secret, a hash or another operator’s credential', async () => {
    const r = await call(t.url, 'GET', '/api/v1/auth/credentials', { headers: { 'x-api-key': c.alice.apiKey } });
    const secretOf = (key: string) => key.split('.')[1]!;
    for (const secret of [secretOf(c.alice.apiKey), c.alice.oauthClientSecret, secretOf(c.bob.apiKey), secretOf(c.admin.apiKey)])
      expect(r.text).not.toContain(secret);
    const hashes = [
      ...(await t.ctx.database.db.selectFrom('api_keys').select('secret_hash').execute()).map((x) => x.secret_hash),
      ...(await t.ctx.database.db.selectFrom('oauth_clients').select('secret_hash').execute()).map((x) => x.secret_hash),
    ];
    for (const h of hashes) {
      expect(r.text).not.toContain(h);
      expect(r.text).not.toContain(h.split('$')[2]!);
    }
    expect(r.text).not.toContain('s256$');
    expect(r.text).not.toContain('5bb0b00000000001'); // bob's key id
  });

  it('shows a per-credential rate limit and a revoked key as such', async () => {
    await t.ctx.database.db.updateTable('api_keys').set({ rate_limit: 50 }).where('id', '=', '5bb0b00000000001').execute();
    const r = await call<Body<Credentials>>(t.url, 'GET', '/api/v1/auth/credentials', { headers: { 'x-api-key': c.bob.apiKey } });
    expect(r.body.data.apiKeys[0]).toMatchObject({ rateLimit: 50, revoked: false });
    expect(r.body.data.oauthClients).toEqual([]);
  });
});
