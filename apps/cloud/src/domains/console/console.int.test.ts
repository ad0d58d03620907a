import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { hashPassword } from '../../crypto/secrets.ts';
import { DIALECTS, call, startTestServer, TEST_EPOCH, type TestServer } from '../../testing/harness.ts';
import { ManualClock } from '@vend/protocol';
import { PageClient, formFields } from '../marketplace-pages/pages.test-support.ts';
import { totpAt } from '../auth/auth.testkit.ts';
import { consoleBuild, metaToken, signInAt } from './console.test-support.ts';

const { alice, bob, dave, admin } = SANDBOX_CREDENTIALS;
const ADMIN_PASSWORD = 'sandbox-admin-pass-for-tests';
const MINE = 'SBX-ALICE-0001';

type Machines = { records: { machineNo: string }[] };

describe.each(DIALECTS)('the operator console and the page session as an API credential (%s)', (dialect) => {
  const build = consoleBuild();
  const clock = new ManualClock(TEST_EPOCH);
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { clock, env: { CONSOLE_DIR: build.dir } });
    await t.ctx.database.db
      .updateTable('operators')
      .set({ password_hash: await hashPassword(ADMIN_PASSWORD) })
      .where('id', '=', OPERATOR_IDS.admin)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    build.remove();
  });
  // a fresh hour for the sign-in attempt limits (10 an hour per email and address); sessions live 30 days
  beforeEach(() => clock.advance(3601_000));

  /** A browser signed in through /signin, and the token its console page carries. */
  async function browser(who: { email: string; password: string; totpSecret?: string }) {
    const c = new PageClient(t.url);
    const done = await signInAt(c, clock, who);
    if (!c.cookies.has('vend_session')) throw new Error(`no session after sign-in: ${done.status}`);
    const page = await c.get('/console/');
    return { c, csrf: metaToken(page.text) };
  }
  const api = (c: PageClient, method: string, path: string, headers: Record<string, string> = {}, json?: unknown) =>
    c.request(method, `/api/v1${path}`, json === undefined ? undefined : JSON.stringify(json), {
      ...headers,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    });
  const data = <T>(r: { status: number; text: string }): T => (JSON.parse(r.text) as { data: T }).data;

  it('signs in at /signin (password, then TOTP) and returns 303 to the asked page, with an HttpOnly SameSite=Strict session cookie', async () => {
    const c = new PageClient(t.url);
    const done = await signInAt(c, clock, alice, `/console/machines/${MINE}`);
    expect([done.status, done.location]).toEqual([303, `/console/machines/${MINE}`]);
    const set = done.headers.getSetCookie().find((s) => s.startsWith('vend_session='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    const none = new PageClient(t.url);
    expect((await signInAt(none, clock, alice)).location).toBe('/console/');
  });

  it('refuses to send a sign-in anywhere but a path of this service', async () => {
    const bad = ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/console/\r\nx', 'console/'];
    for (const next of bad) {
      const page = await new PageClient(t.url).get(`/signin?next=${encodeURIComponent(next)}`);
      expect([next, page.status, formFields(page.text, '/signin')['next']]).toEqual([next, 200, '/console/']);
    }
    const c = new PageClient(t.url);
    const done = await signInAt(c, clock, alice, '//evil.example/x');
    expect([done.status, done.location]).toEqual([303, '/console/']);
    const kept = await new PageClient(t.url).get(`/signin?next=${encodeURIComponent('/console/orders?status=paid&page=2')}`);
    expect(formFields(kept.text, '/signin')['next']).toBe('/console/orders?status=paid&page=2');
  });

  it('the console page: without a session 303 to sign-in and back; with one its index.html, the session’s CSRF token in a meta tag, under a strict policy', async () => {
    const anon = new PageClient(t.url);
    const away = await anon.get(`/console/machines/${MINE}?tab=aisles`);
    expect([away.status, away.location]).toEqual([303, `/signin?next=${encodeURIComponent(`/console/machines/${MINE}?tab=aisles`)}`]);
    anon.cookies.set('vend_session', 'vat_not-a-live-session-token-000000');
    expect((await anon.get('/console/')).status).toBe(303);
    const bare = await fetch(`${t.url}/console`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/console/']);

    const { c, csrf } = await browser(alice);
    const page = await c.get(`/console/machines/${MINE}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/^<!doctype html>\n<html lang="en"><head><meta name="csrf-token" content="[A-Za-z0-9_-]{43}"><meta charset="utf-8">/);
    expect(metaToken(page.text)).toBe(csrf);
    const csp = page.headers.get('content-security-policy')!;
    for (const d of ["script-src 'self'", "connect-src 'self'", "img-src 'self' data:", "style-src 'self'", "frame-ancestors 'none'", "form-action 'self'"])
      expect(csp).toContain(d);
    expect(csp).not.toContain('unsafe');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the allow-listed assets with an ETag, no-cache and nosniff; nothing else of the folder', async () => {
    const js = await fetch(`${t.url}/console/assets/console.js`);
    expect(js.status).toBe(200);
    expect(await js.text()).toBe(build.script);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(js.headers.get('cache-control')).toBe('no-cache');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = js.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await fetch(`${t.url}/console/assets/console.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${t.url}/console/assets/console.css`)).headers.get('content-type')).toContain('text/css');
    for (const name of ['secret.txt', 'index.html', '..%2Fsecret.txt', '.env.js', 'missing.js', 'sub/console.js'])
      expect([name, (await fetch(`${t.url}/console/assets/${name}`)).status]).toEqual([name, 404]);
  });

  it('the cookie with its page’s X-CSRF-Token is the session’s principal on the API; the cookie alone, or another session’s token, is nobody', async () => {
    const a = await browser(alice);
    const b = await browser(bob);
    const own = await call<{ data: Machines }>(t.url, 'GET', '/api/v1/machines', { headers: { 'x-api-key': alice.apiKey } });
    const viaCookie = await api(a.c, 'GET', '/machines', { 'x-csrf-token': a.csrf });
    expect(viaCookie.status).toBe(200);
    expect(data<Machines>(viaCookie).records.map((m) => m.machineNo)).toEqual(own.body.data.records.map((m) => m.machineNo));
    expect(data<Machines>(viaCookie).records.map((m) => m.machineNo)).toContain(MINE);
    for (const headers of [
      {} as Record<string, string>,
      { 'x-csrf-token': b.csrf },
      { 'x-csrf-token': 'x' },
      { 'x-csrf-token': '' },
      { 'x-csrf-token': a.csrf.slice(1) },
    ]) {
      const r = await api(a.c, 'GET', '/machines', headers);
      expect([r.status, JSON.parse(r.text)]).toEqual([401, { code: 401, message: 'Invalid API key', data: null }]);
    }
    // another operator's machine is the same 404 as a missing one
    const foreign = await api(b.c, 'GET', `/machines/${MINE}/operator-view`, { 'x-csrf-token': b.csrf });
    expect([foreign.status, JSON.parse(foreign.text).message]).toEqual([404, 'Machine not found']);
    expect((await api(a.c, 'GET', `/machines/${MINE}/operator-view`, { 'x-csrf-token': a.csrf })).status).toBe(200);
  });

  it('writes with cookie + CSRF header, never with the cookie alone', async () => {
    const a = await browser(alice);
    const path = `/inventory/machines/${MINE}/aisles/1`;
    const refused = await api(a.c, 'PUT', path, {}, { currentStock: 1 });
    expect(refused.status).toBe(401);
    const ok = await api(a.c, 'PUT', path, { 'x-csrf-token': a.csrf }, { currentStock: 2 });
    expect(ok.status).toBe(200);
    expect(data<{ currentStock: number }>(ok).currentStock).toBe(2);
  });

  it('signs out from a console form carrying the meta token: the session is over for the API and the pages; without the token 403', async () => {
    const a = await browser(alice);
    const session = a.c.cookies.get('vend_session')!;
    const refused = await a.c.request('POST', '/signout', new URLSearchParams({ _csrf: 'not-the-token' }));
    expect(refused.status).toBe(403);
    expect((await api(a.c, 'GET', '/machines', { 'x-csrf-token': a.csrf })).status).toBe(200);
    const out = await a.c.request('POST', '/signout', new URLSearchParams({ _csrf: a.csrf }));
    expect([out.status, out.location]).toEqual([303, '/signin']);
    a.c.cookies.set('vend_session', session); // a copy kept elsewhere is dead too
    expect((await api(a.c, 'GET', '/machines', { 'x-csrf-token': a.csrf })).status).toBe(401);
    expect((await a.c.get('/console/')).status).toBe(303);
  });

  it('an access-group session in the cookie sees only its group’s machines; an admin session sees every operator’s', async () => {
    const opened = await call<{ data: { token: string } }>(t.url, 'POST', '/api/v1/access/session', {
      headers: { 'x-api-key': dave.apiKey },
      json: { operatorEmail: alice.email },
    });
    const d = new PageClient(t.url);
    d.cookies.set('vend_session', opened.body.data.token);
    const csrf = metaToken((await d.get('/console/')).text);
    const seen = await api(d, 'GET', '/machines', { 'x-csrf-token': csrf });
    expect(data<Machines>(seen).records.map((m) => m.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002']);
    expect((await api(d, 'GET', '/machines/SBX-ALICE-0003/operator-view', { 'x-csrf-token': csrf })).status).toBe(404);

    const ad = await browser({ email: admin.email, password: ADMIN_PASSWORD });
    const all = data<Machines>(await api(ad.c, 'GET', '/machines?pageSize=100', { 'x-csrf-token': ad.csrf })).records.map((m) => m.machineNo);
    expect(all).toEqual(expect.arrayContaining([MINE, 'SBX-BOB-0001']));
  });

  describe('the access-group switch', () => {
    let daveSecret: string | undefined;
    /** dave (a driver alice gave her route group) signed in on his own fleet; he sets his authenticator up the first time. */
    async function dave() {
      const c = new PageClient(t.url);
      if (daveSecret) await signInAt(c, clock, { ...SANDBOX_CREDENTIALS.dave, totpSecret: daveSecret });
      else {
        await c.get('/signin');
        const a = await c.post('/signin', { email: SANDBOX_CREDENTIALS.dave.email, password: SANDBOX_CREDENTIALS.dave.password });
        clock.advance(30_000);
        const fields = formFields(a.text, '/signin/enrol');
        daveSecret = fields['secret']!;
        await c.post('/signin/enrol', { ...fields, code: totpAt(daveSecret, clock.now()) });
      }
      const own = c.cookies.get('vend_session')!;
      const csrf = metaToken((await c.get('/console/')).text);
      const me = data<{ restricted: boolean; grants: { groupId: string; operatorEmail: string }[] }>(
        await api(c, 'GET', '/access/me', { 'x-csrf-token': csrf }),
      );
      return { c, own, csrf, me };
    }
    const switchTo = (c: PageClient, csrf: string, groupId: string) =>
      c.request('POST', '/console/access/switch', new URLSearchParams({ _csrf: csrf, groupId }));
    const machinesOf = async (c: PageClient, csrf: string) =>
      data<Machines>(await api(c, 'GET', '/machines', { 'x-csrf-token': csrf })).records.map((m) => m.machineNo);
    const bearer = (token: string, path: string) => call(t.url, 'GET', `/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });

    it('switches onto the group’s fleet: the cookie holds a fenced session (only the group’s machines and scopes), the own session is kept for the way back', async () => {
      const d = await dave();
      expect(d.me.restricted).toBe(false);
      const group = d.me.grants.find((g) => g.operatorEmail === alice.email)!;
      const r = await switchTo(d.c, d.csrf, group.groupId);
      expect([r.status, r.location]).toEqual([303, '/console/']);
      const home = r.headers.getSetCookie().find((s) => s.startsWith('vend_home='))!;
      expect(home).toMatch(/Path=\/;/);
      expect(home).toMatch(/HttpOnly/);
      expect(home).toMatch(/SameSite=Strict/);
      expect(d.c.cookies.get('vend_home')).toBe(d.own);
      const fenced = d.c.cookies.get('vend_session')!;
      expect(fenced).not.toBe(d.own);
      const csrf = metaToken((await d.c.get('/console/')).text);
      expect(csrf).not.toBe(d.csrf);
      const me = data<{ restricted: boolean; operatorEmail: string; group: { id: string } }>(await api(d.c, 'GET', '/access/me', { 'x-csrf-token': csrf }));
      expect([me.restricted, me.operatorEmail, me.group.id]).toEqual([true, alice.email, group.groupId]);
      expect(await machinesOf(d.c, csrf)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002']);
      // outside the group: the same not-found as a missing machine; beyond its scopes: refused
      expect((await api(d.c, 'GET', '/machines/SBX-ALICE-0003/operator-view', { 'x-csrf-token': csrf })).status).toBe(404);
      expect((await api(d.c, 'GET', '/machines/SBX-BOB-0001/operator-view', { 'x-csrf-token': csrf })).status).toBe(404);
      expect((await api(d.c, 'GET', '/dfy/checkpoints', { 'x-csrf-token': csrf })).status).toBe(403);
      expect((await api(d.c, 'PUT', '/machines/SBX-ALICE-0001', { 'x-csrf-token': csrf }, { name: 'x' })).status).toBe(403);
      // the kept own session is no credential on the API while switched: only vend_session is read
      expect((await api(d.c, 'GET', '/machines', { 'x-csrf-token': d.csrf })).status).toBe(401);
    });

    it('refuses a wrong CSRF token (403) and a group the person does not hold (404), changing nothing', async () => {
      const d = await dave();
      const group = d.me.grants[0]!;
      for (const token of ['not-the-token', '']) {
        const r = await switchTo(d.c, token, group.groupId);
        expect(r.status).toBe(403);
      }
      expect(d.c.cookies.get('vend_session')).toBe(d.own);
      expect(d.c.cookies.has('vend_home')).toBe(false);
      // "back" on the own fleet changes nothing (the session stays signed in)
      const back = await d.c.request('POST', '/console/access/back', new URLSearchParams({ _csrf: d.csrf }));
      expect([back.status, back.location, d.c.cookies.get('vend_session')]).toEqual([303, '/console/access', d.own]);
      expect((await bearer(d.own, '/machines')).status).toBe(200);
      const none = await switchTo(d.c, d.csrf, 'acg_not_a_group');
      expect(none.status).toBe(404);
      expect(none.text).toContain('No such access group');
      // alice holds no group at all: dave's group id is nothing to her
      const a = await browser(alice);
      const hers = await switchTo(a.c, a.csrf, group.groupId);
      expect(hers.status).toBe(404);
      expect(await machinesOf(a.c, a.csrf)).toContain('SBX-ALICE-0003');
      expect(await machinesOf(d.c, d.csrf)).not.toContain('SBX-ALICE-0001');
    });

    it('goes back: the own session returns, the fenced one is over', async () => {
      const d = await dave();
      await switchTo(d.c, d.csrf, d.me.grants[0]!.groupId);
      const fenced = d.c.cookies.get('vend_session')!;
      const csrf = metaToken((await d.c.get('/console/')).text);
      expect((await d.c.request('POST', '/console/access/back', new URLSearchParams({ _csrf: d.csrf }))).status).toBe(403);
      const back = await d.c.request('POST', '/console/access/back', new URLSearchParams({ _csrf: csrf }));
      expect([back.status, back.location]).toEqual([303, '/console/access']);
      expect(d.c.cookies.get('vend_session')).toBe(d.own);
      expect(d.c.cookies.has('vend_home')).toBe(false);
      const me = data<{ restricted: boolean }>(await api(d.c, 'GET', '/access/me', { 'x-csrf-token': d.csrf }));
      expect(me.restricted).toBe(false);
      expect((await bearer(fenced, '/machines')).status).toBe(401);
      expect((await bearer(d.own, '/machines')).status).toBe(200);
    });

    it('switching again from a switched browser ends the first fenced session; sign-out ends both sessions', async () => {
      const d = await dave();
      await switchTo(d.c, d.csrf, d.me.grants[0]!.groupId);
      const first = d.c.cookies.get('vend_session')!;
      const csrf1 = metaToken((await d.c.get('/console/')).text);
      expect((await switchTo(d.c, csrf1, d.me.grants[0]!.groupId)).status).toBe(303);
      const second = d.c.cookies.get('vend_session')!;
      expect(second).not.toBe(first);
      expect((await bearer(first, '/machines')).status).toBe(401);
      expect(d.c.cookies.get('vend_home')).toBe(d.own);
      const csrf2 = metaToken((await d.c.get('/console/')).text);
      expect((await d.c.request('POST', '/console/access/signout', new URLSearchParams({ _csrf: csrf1 }))).status).toBe(403);
      const out = await d.c.request('POST', '/console/access/signout', new URLSearchParams({ _csrf: csrf2 }));
      expect([out.status, out.location]).toEqual([303, '/signin']);
      expect(d.c.cookies.has('vend_session')).toBe(false);
      expect(d.c.cookies.has('vend_home')).toBe(false);
      expect((await bearer(second, '/machines')).status).toBe(401);
      expect((await bearer(d.own, '/machines')).status).toBe(401);
      d.c.cookies.set('vend_session', second);
      expect((await d.c.get('/console/')).status).toBe(303);
    });

    it('the plain sign-out (/signout, /advertise/signout) while switched ends both sessions too', async () => {
      for (const path of ['/signout', '/advertise/signout']) {
        const d = await dave();
        await switchTo(d.c, d.csrf, d.me.grants[0]!.groupId);
        const fenced = d.c.cookies.get('vend_session')!;
        const csrf = metaToken((await d.c.get('/console/')).text);
        const out = await d.c.request('POST', path, new URLSearchParams({ _csrf: csrf }));
        expect(out.status).toBe(303);
        expect(d.c.cookies.has('vend_session')).toBe(false);
        expect(d.c.cookies.has('vend_home')).toBe(false);
        expect((await bearer(fenced, '/machines')).status).toBe(401);
        expect((await bearer(d.own, '/machines')).status).toBe(401);
      }
    });
  });
});

describe('the console without a build', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { env: { CONSOLE_DIR: '/nonexistent/console-dist' } });
  });
  afterAll(async () => t?.close());

  it('answers a signed-in page and an asset with 503 naming the set-up script', async () => {
    const c = new PageClient(t.url);
    await signInAt(c, t.clock, alice);
    for (const path of ['/console/', '/console/assets/console.js']) {
      const r = await c.get(path);
      expect([path, r.status]).toEqual([path, 503]);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.text).toContain('bash scripts/setup');
    }
  });
});
