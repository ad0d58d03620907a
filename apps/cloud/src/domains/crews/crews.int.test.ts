import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { mintKey, newOperator } from '../machines/machines.factories.ts';
import { INVITE_TTL_MS } from './crews.rules.ts';
import type { Crew, CrewInvite, CrewInviteView, CrewMember } from './crews.schemas.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };

describe.each(DIALECTS)('crews and invitations on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/crew${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  const createCrew = async (owner: Person, name = 'Route 7') => okData(await api<Crew>('POST', '', owner.headers, { name }));
  const invite = async (by: Person, crewId: string, email: string, role = 'member') =>
    okData(await api<CrewInvite>('POST', `/${crewId}/invite`, by.headers, { email, role }));
  const accept = (who: Person, inv: { inviteId: string; token: string }) =>
    api<CrewMember>('POST', `/accept-invite/${inv.inviteId}`, who.headers, undefined, { token: inv.token });
  const join = async (owner: Person, crewId: string, who: Person, role = 'member') => okData(await accept(who, await invite(owner, crewId, who.email, role)));
  const enc = encodeURIComponent;
  const audit = (resource: string) =>
    db()
      .selectFrom('audit_log')
      .select('action')
      .where('resource', 'like', `${resource}%`)
      .execute()
      .then((rows) => rows.map((r) => r.action).sort());

  /** A crew with one of each: owner, admin, member; and an outsider (another operator). */
  const team = async () => {
    const [owner, admin, member, outsider] = [await person(), await person(), await person(), await person()];
    const crew = await createCrew(owner);
    await join(owner, crew.id, admin, 'admin');
    await join(owner, crew.id, member);
    return { owner, admin, member, outsider, crew };
  };

  it('creates a crew owned by the caller; audited; only the crew members read it', async () => {
    const owner = await person();
    const crew = await createCrew(owner, '  Downtown route  ');
    expect(crew).toMatchObject({ name: 'Downtown route', isDefault: false, createdBy: owner.email, myRole: 'owner', memberCount: 1 });
    expect(okData(await api<Crew>('GET', `/${crew.id}`, owner.headers))).toEqual(crew);
    expect(okData(await api<CrewMember[]>('GET', `/${crew.id}/members`, owner.headers))).toEqual([
      { crewId: crew.id, email: owner.email, role: 'owner', joinedAt: crew.createdAt },
    ]);
    expect(await audit(`crew:${crew.id}`)).toEqual(['crews.create']);
  });

  it('the first GET /crew/mine creates the default crew once; later crews and joined ones are listed too', async () => {
    const me = await person();
    const first = okData(await api<Crew[]>('GET', '/mine', me.headers));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ isDefault: true, myRole: 'owner', createdBy: me.email, memberCount: 1 });
    const again = await Promise.all([api<Crew[]>('GET', '/mine', me.headers), api<Crew[]>('GET', '/mine', me.headers)]);
    for (const r of again) expect(okData(r)).toEqual(first);
    t.clock.advance(1);
    const other = await person();
    const theirs = await createCrew(other);
    await join(other, theirs.id, me, 'admin');
    const mine = okData(await api<Crew[]>('GET', '/mine', me.headers));
    expect(mine.map((c) => [c.id, c.myRole, c.memberCount])).toEqual([
      [first[0]!.id, 'owner', 1],
      [theirs.id, 'admin', 2],
    ]);
    const defaults = await db().selectFrom('crews').select('id').where('default_for', '=', me.email).execute();
    expect(defaults).toHaveLength(1);
  });

  it('role matrix: owner, admin, member and outsider on every crew endpoint', async () => {
    const { owner, admin, member, outsider, crew } = await team();
    const newcomer = await person();
    const statusOf = async (who: Person, what: string): Promise<number> => {
      switch (what) {
        case 'get':
          return (await api('GET', `/${crew.id}`, who.headers)).status;
        case 'members':
          return (await api('GET', `/${crew.id}/members`, who.headers)).status;
        case 'invite':
          return (await api('POST', `/${crew.id}/invite`, who.headers, { email: newcomer.email, role: 'member' })).status;
        case 'role':
          return (await api('PUT', `/${crew.id}/members/${enc(member.email)}/role`, who.headers, { role: 'member' })).status;
        case 'invites':
          return (await api('GET', `/${crew.id}/invites`, who.headers)).status;
        case 'cancelInvite': {
          // a fresh pending invitation per caller, so every caller has one to cancel
          const inv = await invite(owner, crew.id, (await person()).email);
          return (await api('DELETE', `/${crew.id}/invites/${inv.inviteId}`, who.headers)).status;
        }
        default: {
          // remove a member who joins just for it, so every caller has someone to remove
          const victim = await person();
          await join(owner, crew.id, victim);
          return (await api('DELETE', `/${crew.id}/members/${enc(victim.email)}`, who.headers)).status;
        }
      }
    };
    const table: Record<string, [number, number, number, number]> = {
      //          owner admin member outsider
      get: [200, 200, 200, 404],
      members: [200, 200, 200, 404],
      invite: [200, 200, 403, 404],
      role: [200, 200, 403, 404],
      invites: [200, 200, 403, 404],
      cancelInvite: [200, 200, 403, 404],
      remove: [200, 200, 403, 404],
    };
    const got: Record<string, number[]> = {};
    for (const what of Object.keys(table)) {
      got[what] = [];
      for (const who of [owner, admin, member, outsider]) got[what].push(await statusOf(who, what));
    }
    expect(got).toEqual(table);
    // an admin cannot touch owners or make one; an owner can
    expect((await api('PUT', `/${crew.id}/members/${enc(member.email)}/role`, admin.headers, { role: 'owner' })).status).toBe(403);
    expect((await api('DELETE', `/${crew.id}/members/${enc(owner.email)}`, admin.headers)).status).toBe(403);
    expect((await api('POST', `/${crew.id}/invite`, admin.headers, { email: 'boss@example.com', role: 'owner' })).status).toBe(403);
    expect(okData(await api<CrewMember>('PUT', `/${crew.id}/members/${enc(member.email)}/role`, owner.headers, { role: 'admin' })).role).toBe('admin');
    // a member may leave
    const leaver = await person();
    await join(owner, crew.id, leaver);
    expect(okData(await api<CrewMember>('DELETE', `/${crew.id}/members/${enc(leaver.email)}`, leaver.headers)).email).toBe(leaver.email);
    expect((await api('GET', `/${crew.id}`, leaver.headers)).status).toBe(404);
  });

  it('an unknown crew is 404 for everyone, and so is an unknown member for a manager', async () => {
    const { owner, crew } = await team();
    expect((await api('GET', '/crw_nope', owner.headers)).status).toBe(404);
    expect((await api('POST', '/crw_nope/invite', owner.headers, { email: 'x@example.com' })).status).toBe(404);
    expect((await api('PUT', `/${crew.id}/members/${enc('ghost@example.com')}/role`, owner.headers, { role: 'admin' })).status).toBe(404);
    expect((await api('DELETE', `/${crew.id}/members/${enc('ghost@example.com')}`, owner.headers)).status).toBe(404);
  });

  it('the last owner can be neither demoted nor removed; with a second owner both work', async () => {
    const { owner, admin, crew } = await team();
    const demote = await api('PUT', `/${crew.id}/members/${enc(owner.email)}/role`, owner.headers, { role: 'admin' });
    expect(demote.status, demote.text).toBe(409);
    expect(demote.body.message).toMatch(/last owner/);
    expect((await api('DELETE', `/${crew.id}/members/${enc(owner.email)}`, owner.headers)).status).toBe(409);
    okData(await api('PUT', `/${crew.id}/members/${enc(admin.email)}/role`, owner.headers, { role: 'owner' }));
    expect(okData(await api<CrewMember>('PUT', `/${crew.id}/members/${enc(owner.email)}/role`, owner.headers, { role: 'member' })).role).toBe('member');
    expect((await api('DELETE', `/${crew.id}/members/${enc(admin.email)}`, admin.headers)).status).toBe(409);
    const roles = okData(await api<CrewMember[]>('GET', `/${crew.id}/members`, admin.headers)).map((m) => [m.email, m.role]);
    expect(roles.filter(([, r]) => r === 'owner')).toEqual([[admin.email, 'owner']]);
  });

  it("an invitation's token: wrong, for another email, accepted twice, used after leaving, superseded (revoked), expired", async () => {
    const owner = await person();
    const crew = await createCrew(owner);
    const [guest, stranger] = [await person(), await person()];
    const inv = await invite(owner, crew.id, guest.email.toUpperCase());
    expect(inv).toMatchObject({ email: guest.email, role: 'member', state: 'pending', acceptPath: `/api/v1/crew/accept-invite/${inv.inviteId}` });
    const stored = await db().selectFrom('crew_invites').selectAll().where('id', '=', inv.inviteId).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(inv.token);
    expect(Number(stored.expires_at)).toBe(t.clock.now() + INVITE_TTL_MS);

    expect((await accept(guest, { inviteId: inv.inviteId, token: `${inv.token}x` })).status).toBe(404);
    expect((await accept(guest, { inviteId: 'cinv_unknown', token: inv.token })).status).toBe(404);
    const other = await accept(stranger, inv);
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/another email/);
    const noToken = await api('POST', `/accept-invite/${inv.inviteId}`, guest.headers);
    expect(noToken.status).toBe(400);

    const m = okData(await accept(guest, inv));
    expect(m).toMatchObject({ crewId: crew.id, email: guest.email, role: 'member' });
    expect(okData(await accept(guest, inv))).toEqual(m);
    expect(await audit(`crew_invite:${inv.inviteId}`)).toEqual(['crews.invite', 'crews.invite_accept']);
    expect((await api('POST', `/${crew.id}/invite`, owner.headers, { email: guest.email })).status).toBe(409);

    okData(await api('DELETE', `/${crew.id}/members/${enc(guest.email)}`, guest.headers));
    const used = await accept(guest, inv);
    expect([used.status, used.body.message]).toEqual([410, 'Invitation already used']);

    const first = await invite(owner, crew.id, guest.email);
    const second = await invite(owner, crew.id, guest.email, 'admin');
    const revoked = await accept(guest, first);
    expect([revoked.status, revoked.body.message]).toEqual([410, 'Invitation revoked']);
    t.clock.advance(INVITE_TTL_MS);
    const expired = await accept(guest, second);
    expect([expired.status, expired.body.message]).toEqual([410, 'Invitation expired']);
    await invite(owner, crew.id, stranger.email);
    const stateOf = async (id: string) => (await db().selectFrom('crew_invites').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
    expect([await stateOf(first.inviteId), await stateOf(second.inviteId)]).toEqual(['revoked', 'expired']);
    expect((await api('GET', `/${crew.id}`, guest.headers)).status).toBe(404);
  });

  it('invitations are listed for managers (no token) and a pending one can be cancelled once; its token then fails', async () => {
    const { owner, admin, crew } = await team();
    const invitee = await person();
    const inv = await invite(admin, crew.id, invitee.email);
    const listed = okData(await api<CrewInviteView[]>('GET', `/${crew.id}/invites`, owner.headers));
    expect(listed.find((i) => i.inviteId === inv.inviteId)).toEqual({
      inviteId: inv.inviteId,
      crewId: crew.id,
      email: invitee.email,
      role: 'member',
      state: 'pending',
      invitedBy: admin.email,
      createdAt: expect.any(String),
      expiresAt: inv.expiresAt,
      acceptedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(inv.token);
    const cancelled = okData(await api<CrewInviteView>('DELETE', `/${crew.id}/invites/${inv.inviteId}`, admin.headers));
    expect(cancelled.state).toBe('revoked');
    expect((await api('DELETE', `/${crew.id}/invites/${inv.inviteId}`, owner.headers)).status).toBe(409);
    const late = await accept(invitee, inv);
    expect(late.status).toBe(410);
    expect(late.body.message).toBe('Invitation revoked');
    expect(await audit(`crew_invite:${inv.inviteId}`)).toEqual(['crews.invite', 'crews.invite_revoke']);
    // accepted and expired invitations are not pending: 409; another crew's invitation is 404 here
    const joined = await person();
    const used = await invite(owner, crew.id, joined.email);
    okData(await accept(joined, used));
    expect((await api('DELETE', `/${crew.id}/invites/${used.inviteId}`, owner.headers)).status).toBe(409);
    const old = await invite(owner, crew.id, (await person()).email);
    t.clock.advance(INVITE_TTL_MS);
    expect((await api('DELETE', `/${crew.id}/invites/${old.inviteId}`, owner.headers)).status).toBe(409);
    expect(okData(await api<CrewInviteView[]>('GET', `/${crew.id}/invites`, owner.headers)).find((i) => i.inviteId === old.inviteId)?.state).toBe('expired');
    const other = await createCrew(owner, 'Other');
    expect((await api('DELETE', `/${other.id}/invites/${inv.inviteId}`, owner.headers)).status).toBe(404);
    // an owner invitation is the owner's to cancel
    const boss = await invite(owner, crew.id, (await person()).email, 'owner');
    expect((await api('DELETE', `/${crew.id}/invites/${boss.inviteId}`, admin.headers)).status).toBe(403);
    expect((await api('DELETE', `/${crew.id}/invites/${boss.inviteId}`, owner.headers)).status).toBe(200);
  });

  it('bad input: 422 for wrong types, 400 for missing or out-of-rule values; nothing written', async () => {
    const owner = await person();
    const crew = await createCrew(owner);
    const before = await db().selectFrom('crew_invites').select('id').execute();
    expect((await api('POST', '', owner.headers, { name: 7 })).status).toBe(422);
    expect((await api('POST', '', owner.headers, {})).status).toBe(400);
    expect((await api('POST', '', owner.headers, { name: '   ' })).status).toBe(400);
    expect((await api('POST', '', owner.headers, { name: 'x', extra: 1 })).status).toBe(400);
    expect((await api('POST', `/${crew.id}/invite`, owner.headers, { email: 'not-an-email' })).status).toBe(400);
    expect((await api('POST', `/${crew.id}/invite`, owner.headers, { email: 'a@example.com', role: 'boss' })).status).toBe(400);
    expect((await api('POST', `/${crew.id}/invite`, owner.headers, { email: ['a@example.com'] })).status).toBe(422);
    expect((await api('PUT', `/${crew.id}/members/${enc(owner.email)}/role`, owner.headers, { role: 'boss' })).status).toBe(400);
    expect((await api('PUT', `/${crew.id}/members/not-an-email/role`, owner.headers, { role: 'admin' })).status).toBe(400);
    expect(await db().selectFrom('crew_invites').select('id').execute()).toEqual(before);
  });

  it('scopes: reads need machines:read, writes machines:write; no credential is 401', async () => {
    const owner = await person();
    const crew = await createCrew(owner);
    const readOnly = { 'x-api-key': await mintKey(db(), owner.id, 'machines:read', t.clock.now()) };
    const writeOnly = { 'x-api-key': await mintKey(db(), owner.id, 'machines:write', t.clock.now()) };
    expect((await api('GET', `/${crew.id}`, readOnly)).status).toBe(200);
    expect((await api('GET', `/${crew.id}`, writeOnly)).status).toBe(403);
    expect((await api('POST', `/${crew.id}/invite`, readOnly, { email: 'a@example.com' })).status).toBe(403);
    expect((await api('POST', `/${crew.id}/invite`, writeOnly, { email: 'a@example.com' })).status).toBe(200);
    expect((await api('GET', '/mine', {})).status).toBe(401);
  });
});
