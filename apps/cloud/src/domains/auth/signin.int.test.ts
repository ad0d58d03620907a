import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, startTestServer, type TestServer, suiteServer } from '../../testing/harness.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import { ADMIN_SCOPES, STANDARD_OPERATOR_SCOPES, formatScopes } from '../../http/scopes.ts';
import { bearer, countRows, login, me, post, totpAt, type Challenge, type Session } from './auth.testkit.ts';

const alice = SANDBOX_CREDENTIALS.alice;
const bob = SANDBOX_CREDENTIALS.bob;
/** Spec 1 §7's 401 text, then the detail (docs/decisions/auth.md). */
const BAD_TICKET = 'Invalid API key: invalid or expired sign-in ticket';
const BAD_CODE = 'Invalid API key: invalid verification code';

describe.each(DIALECTS)('sign-in with MFA on %s', (dialect) => {
  let t: TestServer;
  let clock: ManualClock;
  /** Each test signs in from its own address, so the per-address budgets never couple tests. */
  let n = 0;
  const from = () => ({ 'x-forwarded-for': `10.0.0.${++n}` });
  /**
   * Moves to the start of a step two ahead: tests use codes of the current step and the one after,
   * so a code minted after this was never used before.
   */
  const nextStep = () => clock.advance(60_000 - (clock.now() % 30_000));

  beforeAll(async () => {
    t = await startTestServer(dialect);
    clock = t.clock as ManualClock;
  });
  afterAll(async () => t.close());

  it('a right password with MFA enrolled answers a challenge, not a session; the ticket is stored hashed', async () => {
    const r = await post<Challenge>(t, '/api/v1/auth/login', { email: alice.email, password: alice.password }, from());
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.data).toEqual({
      mfaRequired: true,
      mfaEnrollmentRequired: false,
      ticket: expect.stringMatching(/^vmt_/),
      expiresIn: 300,
      methods: ['totp', 'recovery_code'],
      operator: { email: alice.email, name: 'Alice Vending Co', admin: false },
    });
    expect(r.body.data).not.toHaveProperty('token');
    const rows = await t.ctx.database.db.selectFrom('mfa_tickets').selectAll().execute();
    expect(rows.some((x) => x.ticket_hash === sha256Hex(r.body.data.ticket))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(r.body.data.ticket);
  });

  it('accepts the email in any case', async () => {
    expect((await login(t, alice.email.toUpperCase(), alice.password, from())).mfaRequired).toBe(true);
  });

  it('a wrong password, an unknown email and an account without a password are the same 401', async () => {
    const expected = { code: 401, message: 'Invalid API key', data: null };
    for (const body of [
      { email: alice.email, password: 'not-her-password' },
      { email: 'nobody@sandbox.vend.test', password: alice.password },
      { email: SANDBOX_CREDENTIALS.admin.email, password: 'anything-at-all' },
    ]) {
      const r = await post(t, '/api/v1/auth/login', body, from());
      expect(r.status).toBe(401);
      expect(r.body).toEqual(expected);
    }
  });

  it('an email holding a NUL or control character is 400 before any lookup (PostgreSQL cannot hold NUL); surrounding spaces are trimmed', async () => {
    for (const email of [
      `${alice.email}\u0000`,
      `\u0000${alice.email}`,
      alice.email.replace('@', '\u0000@'),
      alice.email.replace('@', '\u0007@'),
      `al\u0085ice@sandbox.vend.test`,
    ]) {
      const r = await post(t, '/api/v1/auth/login', { email, password: alice.password }, from());
      expect(r.status, r.text).toBe(400);
      expect(r.body).toEqual({ code: 400, message: expect.stringMatching(/^Bad request — invalid or missing parameters: body\.email: /), data: null });
    }
    expect((await login(t, `  ${alice.email} `, alice.password, from())).mfaRequired).toBe(true);
  });

  it('refuses malformed bodies with 400/422 in the envelope', async () => {
    expect((await post(t, '/api/v1/auth/login', { email: 'not-an-email', password: 'x' }, from())).status).toBe(400);
    expect((await post(t, '/api/v1/auth/login', { email: alice.email }, from())).status).toBe(400);
    const typed = await post(t, '/api/v1/auth/login', { email: alice.email, password: 12345 }, from());
    expect(typed.status).toBe(422);
    expect(typed.body).toMatchObject({ code: 422, data: null });
  });

  it('a current TOTP code turns the ticket into a session token with the spec login data', async () => {
    nextStep();
    const ch = await login(t, alice.email, alice.password, from());
    const r = await post<Session>(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from());
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.data).toEqual({
      token: expect.stringMatching(/^vat_/),
      tokenType: 'Bearer',
      expiresIn: 30 * 24 * 3600,
      scope: formatScopes(STANDARD_OPERATOR_SCOPES),
      operator: { email: alice.email, name: 'Alice Vending Co', admin: false },
    });
    const who = await me(t, bearer(r.body.data.token));
    expect(who.body.data).toMatchObject({ userId: OPERATOR_IDS.alice, authMethod: 'session', currency: 'USD' });
    expect(who.body.data.scopes).toEqual([...STANDARD_OPERATOR_SCOPES]);

    const row = await t.ctx.database.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', sha256Hex(r.body.data.token))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'session', operator_id: OPERATOR_IDS.alice, expires_at: clock.now() + 30 * 24 * 3600 * 1000 });
    const audit = await t.ctx.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login').execute();
    expect(audit.at(-1)).toMatchObject({ user_id: OPERATOR_IDS.alice, key_id: row.credential_id, resource: `operator:${OPERATOR_IDS.alice}` });
  });

  it('a ticket is single use', async () => {
    nextStep();
    const ch = await login(t, alice.email, alice.password, from());
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from())).status).toBe(200);
    nextStep();
    const again = await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from());
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(BAD_TICKET);
  });

  it('a TOTP code is accepted once: the same code on a second ticket is refused, the next step’s is not', async () => {
    nextStep();
    const code = totpAt(alice.totpSecret, clock.now());
    const first = await login(t, alice.email, alice.password, from());
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: first.ticket, code }, from())).status).toBe(200);
    const second = await login(t, alice.email, alice.password, from());
    const replay = await post(t, '/api/v1/auth/mfa/verify', { ticket: second.ticket, code }, from());
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(BAD_CODE);
    nextStep();
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: second.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from())).status).toBe(200);
  });

  it('accepts the previous and next step, not two steps off; spaces in the code are ignored', async () => {
    nextStep();
    clock.advance(15_000);
    const now = clock.now();
    const ch = await login(t, alice.email, alice.password, from());
    for (const off of [-60_000, 60_000]) {
      expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, now + off) }, from())).status).toBe(401);
    }
    const prev = totpAt(alice.totpSecret, now - 30_000);
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: `${prev.slice(0, 3)} ${prev.slice(3)}` }, from())).status).toBe(200);
    const ch2 = await login(t, alice.email, alice.password, from());
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch2.ticket, code: totpAt(alice.totpSecret, now + 30_000) }, from())).status).toBe(200);
  });

  it('five wrong codes burn the ticket; four do not', async () => {
    nextStep();
    const good = totpAt(alice.totpSecret, clock.now());
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    const burn = await login(t, alice.email, alice.password, from());
    for (let i = 0; i < 5; i++) {
      const r = await post(t, '/api/v1/auth/mfa/verify', { ticket: burn.ticket, code: wrong }, from());
      expect(r.status).toBe(401);
      expect(r.body.message).toBe(BAD_CODE);
    }
    const after = await post(t, '/api/v1/auth/mfa/verify', { ticket: burn.ticket, code: good }, from());
    expect(after.status).toBe(401);
    expect(after.body.message).toBe(BAD_TICKET);

    const keep = await login(t, alice.email, alice.password, from());
    for (let i = 0; i < 4; i++) expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: keep.ticket, code: wrong }, from())).status).toBe(401);
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: keep.ticket, code: good }, from())).status).toBe(200);
  });

  it('a ticket expires after five minutes', async () => {
    nextStep();
    const ch = await login(t, alice.email, alice.password, from());
    clock.advance(300_000);
    const r = await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from());
    expect(r.status).toBe(401);
    expect(r.body.message).toBe(BAD_TICKET);
  });

  it("every sign-in 401 carries spec 1 §7's text 'Invalid API key', a detail after a colon where one is safe to give", async () => {
    const bodies: Record<string, unknown> = {
      '/api/v1/auth/mfa/verify': { ticket: 'vmt_made-up', code: '123456' },
      '/api/v1/auth/mfa/recovery': { ticket: 'vmt_made-up', recoveryCode: 'AAAA-BBBB-CCCC-DDDD' },
      '/api/v1/auth/mfa/enroll/start': { ticket: 'vmt_made-up' },
      '/api/v1/auth/mfa/enroll/confirm': { ticket: 'not-even-shaped', code: '123456' },
    };
    for (const [path, body] of Object.entries(bodies)) {
      const r = await post(t, path, body, from());
      expect(r.body, path).toEqual({ code: 401, message: BAD_TICKET, data: null });
    }
    const ch = await login(t, alice.email, alice.password, from());
    const wrong = await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now() + 10 * 60_000) }, from());
    expect(wrong.body).toEqual({ code: 401, message: BAD_CODE, data: null });
    // a wrong password names nothing (which of email or password was wrong stays unsaid)
    expect((await post(t, '/api/v1/auth/login', { email: alice.email, password: 'nope-nope' }, from())).body).toEqual({
      code: 401,
      message: 'Invalid API key',
      data: null,
    });
  });

  it('refuses tickets that were never issued, and malformed codes without spending an attempt', async () => {
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: 'vmt_made-up', code: '123456' }, from())).status).toBe(401);
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: 'not-even-shaped', code: '123456' }, from())).status).toBe(401);
    const ch = await login(t, alice.email, alice.password, from());
    for (let i = 0; i < 6; i++) expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: '12345x' }, from())).status).toBe(400);
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: 123456 }, from())).status).toBe(422);
    nextStep();
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from())).status).toBe(200);
  });

  it('a session token expires after the period stated in expiresIn', async () => {
    nextStep();
    const ch = await login(t, alice.email, alice.password, from());
    const s = (await post<Session>(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from())).body.data;
    clock.advance(s.expiresIn * 1000 - 1);
    expect((await me(t, bearer(s.token))).status).toBe(200);
    clock.advance(1);
    expect((await me(t, bearer(s.token))).status).toBe(401);
  });

  it('an operator without MFA enrols: start, confirm, recovery codes shown once, then MFA at every sign-in', async () => {
    const ch = await login(t, bob.email, bob.password, from());
    expect(ch).toMatchObject({ mfaRequired: false, mfaEnrollmentRequired: true, methods: ['totp'] });
    // verify and recovery need an enrolment first
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: ch.ticket, code: '123456' }, from())).status).toBe(409);
    // confirm before start
    expect((await post(t, '/api/v1/auth/mfa/enroll/confirm', { ticket: ch.ticket, code: '123456' }, from())).status).toBe(409);

    const start = await post<{ secret: string; otpauthUrl: string; algorithm: string; digits: number; period: number }>(
      t,
      '/api/v1/auth/mfa/enroll/start',
      { ticket: ch.ticket },
      from(),
    );
    expect(start.status).toBe(200);
    expect(start.body.data).toMatchObject({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), algorithm: 'SHA1', digits: 6, period: 30 });
    const url = new URL(start.body.data.otpauthUrl);
    expect(url.searchParams.get('secret')).toBe(start.body.data.secret);
    const secret = start.body.data.secret;

    // the pending secret is sealed, never stored plain
    const ticketRow = await t.ctx.database.db.selectFrom('mfa_tickets').selectAll().where('ticket_hash', '=', sha256Hex(ch.ticket)).executeTakeFirstOrThrow();
    expect(ticketRow.pending_secret_enc).not.toContain(secret);
    expect(t.ctx.sealer.open(ticketRow.pending_secret_enc!)).toBe(secret);

    nextStep();
    const wrong = await post(t, '/api/v1/auth/mfa/enroll/confirm', { ticket: ch.ticket, code: totpAt(alice.totpSecret, clock.now()) }, from());
    expect(wrong.status).toBe(401);
    const ok = await post<Session>(t, '/api/v1/auth/mfa/enroll/confirm', { ticket: ch.ticket, code: totpAt(secret, clock.now()) }, from());
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ tokenType: 'Bearer', operator: { email: bob.email, admin: false } });
    const codes = ok.body.data.recoveryCodes!;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await me(t, bearer(ok.body.data.token))).body.data).toMatchObject({ userId: OPERATOR_IDS.bob, authMethod: 'session', currency: 'GBP' });

    const op = await t.ctx.database.db.selectFrom('operators').selectAll().where('id', '=', OPERATOR_IDS.bob).executeTakeFirstOrThrow();
    expect(op.mfa_enabled).toBe(1);
    expect(t.ctx.sealer.open(op.mfa_secret_enc!)).toBe(secret);
    const stored = await t.ctx.database.db.selectFrom('recovery_codes').selectAll().where('operator_id', '=', OPERATOR_IDS.bob).execute();
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const c of codes) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(c.replace(/-/g, ''));
    }
    const audit = await t.ctx.database.db.selectFrom('audit_log').select('action').where('user_id', '=', OPERATOR_IDS.bob).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['auth.mfa.challenge', 'auth.mfa.enroll.start', 'auth.mfa.enroll', 'auth.login']));

    // the enrolment code cannot be replayed at the next sign-in
    const next = await login(t, bob.email, bob.password, from());
    expect(next).toMatchObject({ mfaRequired: true, mfaEnrollmentRequired: false });
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: next.ticket, code: totpAt(secret, clock.now()) }, from())).status).toBe(401);
    expect((await post(t, '/api/v1/auth/mfa/enroll/start', { ticket: next.ticket }, from())).status).toBe(409);
    nextStep();
    expect((await post(t, '/api/v1/auth/mfa/verify', { ticket: next.ticket, code: totpAt(secret, clock.now()) }, from())).status).toBe(200);

    // a recovery code signs in once, whatever its case and spacing
    const first = codes[0]!;
    const r1 = await login(t, bob.email, bob.password, from());
    const used = await post<Session>(
      t,
      '/api/v1/auth/mfa/recovery',
      { ticket: r1.ticket, recoveryCode: ` ${first.toLowerCase().replace(/-/g, ' ')} ` },
      from(),
    );
    expect(used.status).toBe(200);
    expect(used.body.data).toMatchObject({ tokenType: 'Bearer', recoveryCodesRemaining: 9 });
    expect((await me(t, bearer(used.body.data.token))).body.data.authMethod).toBe('session');

    const r2 = await login(t, bob.email, bob.password, from());
    const reused = await post(t, '/api/v1/auth/mfa/recovery', { ticket: r2.ticket, recoveryCode: first }, from());
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe(BAD_CODE);
    const made = await post(t, '/api/v1/auth/mfa/recovery', { ticket: r2.ticket, recoveryCode: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ' }, from());
    expect(made.status).toBe(401);
    expect((await post<Session>(t, '/api/v1/auth/mfa/recovery', { ticket: r2.ticket, recoveryCode: codes[1]! }, from())).body.data.recoveryCodesRemaining).toBe(
      8,
    );
  });

  it('an admin session holds every scope and no currency', async () => {
    const admin = SANDBOX_CREDENTIALS.admin;
    const { hashPassword } = await import('../../crypto/secrets.ts');
    await t.ctx.database.db
      .updateTable('operators')
      .set({ password_hash: await hashPassword('admin-test-password') })
      .where('id', '=', OPERATOR_IDS.admin)
      .execute();
    const ch = await login(t, admin.email, 'admin-test-password', from());
    const start = await post<{ secret: string }>(t, '/api/v1/auth/mfa/enroll/start', { ticket: ch.ticket }, from());
    nextStep();
    const s = await post<Session>(t, '/api/v1/auth/mfa/enroll/confirm', { ticket: ch.ticket, code: totpAt(start.body.data.secret, clock.now()) }, from());
    expect(s.body.data.scope).toBe(formatScopes(ADMIN_SCOPES));
    expect((await me(t, bearer(s.body.data.token))).body.data).toMatchObject({ admin: true, currency: null, scopes: [...ADMIN_SCOPES] });
  });
});

describe.each(DIALECTS)('sign-in brute-force bounds on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('ten password attempts per email and address per hour, then 429 even for the right password', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.10' };
    for (let i = 0; i < 10; i++) expect((await post(t, '/api/v1/auth/login', { email: bob.email, password: `guess-${i}` }, ip)).status).toBe(401);
    const over = await post(t, '/api/v1/auth/login', { email: bob.email, password: bob.password }, ip);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
    expect(over.body).toEqual({ code: 429, message: 'Rate limit exceeded', data: null });
    // another address, or another email from the same address, is not locked out
    expect((await post(t, '/api/v1/auth/login', { email: bob.email, password: bob.password }, { 'x-forwarded-for': '192.0.2.11' })).status).toBe(200);
    expect((await post(t, '/api/v1/auth/login', { email: alice.email, password: alice.password }, ip)).status).toBe(200);
  });

  it('thirty code checks per operator per hour across tickets and addresses, then 429', async () => {
    const clock = t.clock as ManualClock;
    let checks = 0;
    let ticket = '';
    for (let round = 0; checks < 30; round++) {
      ticket = (await login(t, alice.email, alice.password, { 'x-forwarded-for': `198.51.100.${round}` })).ticket;
      for (let i = 0; i < 5 && checks < 30; i++, checks++) {
        const r = await post(t, '/api/v1/auth/mfa/verify', { ticket, code: '000000' }, { 'x-forwarded-for': `203.0.113.${checks}` });
        expect(r.status).toBe(401);
      }
    }
    const fresh = await login(t, alice.email, alice.password, { 'x-forwarded-for': '198.51.100.200' });
    const over = await post(
      t,
      '/api/v1/auth/mfa/verify',
      { ticket: fresh.ticket, code: totpAt(alice.totpSecret, clock.now()) },
      { 'x-forwarded-for': '203.0.113.250' },
    );
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
  });

  it('sixty MFA calls per address per hour, then 429', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < 60; i++) expect((await post(t, '/api/v1/auth/mfa/enroll/start', { ticket: 'vmt_nothing' }, ip)).status).toBe(401);
    expect((await post(t, '/api/v1/auth/mfa/enroll/start', { ticket: 'vmt_nothing' }, ip)).status).toBe(429);
    expect(await countRows(t, 'totp_uses')).toBe(0);
  });
});
