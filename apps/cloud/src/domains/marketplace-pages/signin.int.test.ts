import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { STYLESHEET_PATH } from '../../http/html.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { PageClient, aliceCode, signInAlice } from './pages.test-support.ts';

const alice = SANDBOX_CREDENTIALS.alice;

describe.each(DIALECTS)('operator sign-in pages (%s)', (dialect) => {
  const t = suiteServer(dialect);

  it('sends the page security headers and the stylesheet it links', async () => {
    const c = new PageClient(t.url);
    const r = await c.get('/advertise/signin');
    expect(r.status).toBe(200);
    const csp = r.headers.get('content-security-policy')!;
    for (const d of ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"])
      expect(csp).toContain(d);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.text).toContain(`href="${STYLESHEET_PATH}"`);
    expect(r.text).toMatch(/<label for="f-email">/);
    const css = await c.get(STYLESHEET_PATH);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.headers.get('cache-control')).toContain('immutable');
  });

  it('sets the CSRF cookie HttpOnly and SameSite=Strict, without Secure on plain-http loopback in the sandbox', async () => {
    const c = new PageClient(t.url);
    const r = await c.get('/advertise/signin');
    const cookie = r.headers.getSetCookie().find((s) => s.startsWith('vend_csrf='))!;
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure');
  });

  it('refuses a POST without the CSRF token, with another browser’s token, or with no cookie (403, nothing happens)', async () => {
    const c = new PageClient(t.url);
    await c.get('/advertise/signin');
    const fields = { email: alice.email, password: alice.password };
    expect((await c.post('/advertise/signin', { ...fields, _csrf: '' })).status).toBe(403);
    const other = new PageClient(t.url);
    await other.get('/advertise/signin');
    expect((await c.post('/advertise/signin', { ...fields, _csrf: other.csrf() })).status).toBe(403);
    const token = (await c.get('/advertise/signin'), c.csrf());
    c.cookies.clear();
    const bare = await c.request('POST', '/advertise/signin', new URLSearchParams({ ...fields, _csrf: token }));
    expect(bare.status).toBe(403);
    expect(bare.text).toContain('This form has expired');
    expect(bare.headers.getSetCookie().some((s) => s.startsWith('vend_signin='))).toBe(false);
  });

  it('re-renders missing fields with 400 and a wrong password with 401, the email kept and the errors tied to their fields', async () => {
    const c = new PageClient(t.url);
    await c.get('/advertise/signin');
    const empty = await c.post('/advertise/signin', { email: '', password: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('href="#f-email"');
    expect(empty.text).toContain('aria-describedby="f-password-error"');
    const wrong = await c.post('/advertise/signin', { email: alice.email, password: 'not-her-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(`value="${alice.email}"`);
    expect(wrong.text).toContain('The email address or the password is not right');
  });

  it('signs in with password then TOTP into an HttpOnly SameSite=Strict session cookie; a wrong code is 401 on the form', async () => {
    const c = new PageClient(t.url);
    await c.get('/advertise/signin');
    const step1 = await c.post('/advertise/signin', { email: alice.email, password: alice.password, next: '/advertise/approvals' });
    expect(step1.status).toBe(303);
    expect(step1.location).toBe('/advertise/signin/code?next=%2Fadvertise%2Fapprovals');
    expect(step1.headers.getSetCookie().find((s) => s.startsWith('vend_signin='))).toContain('Path=/advertise/signin');
    await c.get(step1.location!);
    const bad = await c.post('/advertise/signin/code', { code: '000000', next: '/advertise/approvals' });
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('That code is not right');
    const ok = await c.post('/advertise/signin/code', { code: aliceCode(t.clock), next: '/advertise/approvals' });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/advertise/approvals');
    const set = ok.headers.getSetCookie().find((s) => s.startsWith('vend_session='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).toMatch(/Max-Age=\d+/);
    expect(c.cookies.has('vend_signin')).toBe(false);
  });

  it('never returns to another site after sign-in', async () => {
    const c = new PageClient(t.url);
    await c.get('/advertise/signin');
    const step1 = await c.post('/advertise/signin', { email: alice.email, password: alice.password, next: '//evil.example/x' });
    expect(step1.location).toBe('/advertise/signin/code?next=%2Fadvertise%2Fapprovals');
  });
});

describe.each(DIALECTS)('a page session’s hourly budget (%s)', (dialect) => {
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '3' } });

  it('is the session token’s own: its API calls and its pages count together, then a 429 page with Retry-After', async () => {
    const c = new PageClient(t.url);
    await signInAlice(c, t.clock);
    expect((await c.get('/advertise/approvals')).status).toBe(200);
    const me = await call(t.url, 'GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${c.cookies.get('vend_session')!}` } });
    expect(me.status).toBe(200);
    expect((await c.get('/advertise/approvals')).status).toBe(200);
    const over = await c.get('/advertise/approvals');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
    expect(over.headers.get('content-type')).toContain('text/html');
    expect(over.text).toContain('Too many attempts');
  });
});
