import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { okData, type Answer, type Body } from '../../testing/answers.ts';
import { paidOrder, setAisle } from '../commands/commands.test-support.ts';
import { freshSerial, mintKey, newOperator } from '../machines/machines.factories.ts';
import type { AccessGroup, AccessMe, AccessSession, Assignment } from './access.schemas.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };

describe.each(DIALECTS)('access groups on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>): Promise<Answer<T>> =>
    call<Body<T>>(t.url, method, `/api/v1${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  const bearer = (token: string): H => ({ authorization: `Bearer ${token}` });
  const register = async (owner: Person) => {
    const machineNo = freshSerial('ACC');
    okData(await api('POST', '/machines/register', owner.headers, { machineNo }));
    return machineNo;
  };
  const joinCrew = async (owner: Person, who: Person, crewId: string) => {
    const inv = okData(await api<{ inviteId: string; token: string }>('POST', `/crew/${crewId}/invite`, owner.headers, { email: who.email }));
    okData(await api('POST', `/crew/accept-invite/${inv.inviteId}`, who.headers, undefined, { token: inv.token }));
  };
  const audited = (resource: string) =>
    db()
      .selectFrom('audit_log')
      .select('action')
      .where('resource', 'like', `${resource}%`)
      .execute()
      .then((rows) => rows.map((r) => r.action).sort());

  /** An operator with machines A, B, C; a driver in its crew holding group "North" (A and B); an outsider. */
  const route = async (
    scopes: string[] = ['machines:read', 'machines:write', 'inventory:read', 'inventory:write', 'orders:read', 'commands:read', 'commands:write'],
  ) => {
    const [owner, driver, outsider] = [await person(), await person(), await person()];
    const [a, b, c] = [await register(owner), await register(owner), await register(owner)];
    const crew = okData(await api<{ id: string }>('POST', '/crew', owner.headers, { name: 'Route 7' }));
    await joinCrew(owner, driver, crew.id);
    const group = okData(await api<AccessGroup>('POST', '/access/groups', owner.headers, { name: 'North', machineNos: [b, a], scopes }));
    okData(await api<Assignment>('PUT', '/access/assignment', owner.headers, { username: driver.email, groupId: group.id }));
    const session = okData(await api<AccessSession>('POST', '/access/session', driver.headers, { operatorEmail: owner.email }));
    return { owner, driver, outsider, crew, group, session, fenced: bearer(session.token), a, b, c };
  };

  it('a group holds the operator machines and scopes; a person of its crews is assigned and opens a fenced session', async () => {
    const r = await route();
    expect(r.group).toMatchObject({ name: 'North', machineNos: [r.a, r.b].sort(), usernames: [] });
    expect(okData(await api<AccessGroup[]>('GET', '/access/groups', r.owner.headers))).toEqual([{ ...r.group, usernames: [r.driver.email] }]);
    expect(okData(await api<Assignment>('GET', '/access/assignment', r.owner.headers, undefined, { username: r.driver.email }))).toMatchObject({
      username: r.driver.email,
      groupId: r.group.id,
      groupName: 'North',
      machineNos: [r.a, r.b].sort(),
    });
    expect(r.session).toMatchObject({ tokenType: 'Bearer', expiresIn: 43_200, operator: { email: r.owner.email }, group: { id: r.group.id } });
    expect(r.session.scope.split(' ')).toEqual(expect.arrayContaining(['inventory:write', 'commands:write']));
    // only the token's SHA-256 is kept
    const rows = await db().selectFrom('access_tokens').select('token_hash').where('kind', '=', 'access').execute();
    expect(rows.some((x) => x.token_hash === r.session.token)).toBe(false);
    const me = okData(await api<AccessMe>('GET', '/access/me', r.fenced));
    expect(me).toMatchObject({ username: r.driver.email, operatorEmail: r.owner.email, authMethod: 'access', restricted: true, grants: [] });
    expect(me.group).toMatchObject({ id: r.group.id, machineNos: [r.a, r.b].sort() });
    const mine = okData(await api<AccessMe>('GET', '/access/me', r.driver.headers));
    expect(mine).toMatchObject({ username: r.driver.email, restricted: false, group: null });
    expect(mine.grants).toEqual([{ operatorEmail: r.owner.email, operatorName: expect.any(String), groupId: r.group.id, groupName: 'North' }]);
    expect(await audited(`access_group:${r.group.id}`)).toEqual(['access.group_create']);
    expect(await audited(`access_assignment:${r.driver.email}`)).toEqual(['access.assign']);
  });

  it('machines, inventory and commands: a machine outside the group is the ownership 404, inside it works', async () => {
    const r = await route();
    const list = okData(await api<{ total: number; records: { machineNo: string }[] }>('GET', '/machines', r.fenced));
    expect(list.total).toBe(2);
    expect(list.records.map((m) => m.machineNo).sort()).toEqual([r.a, r.b].sort());
    for (const path of [`/machines/${r.c}`, `/machines/${r.c}/operator-view`, `/inventory/machines/${r.c}`, `/machines/${r.c}/commands`]) {
      const res = await api('GET', path, r.fenced);
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe('Machine not found');
    }
    expect((await api('PATCH', `/machines/${r.c}`, r.fenced, { name: 'x' })).status).toBe(404);
    expect((await api('PUT', `/inventory/machines/${r.c}/aisles/1`, r.fenced, { maxStock: 12 })).status).toBe(404);
    expect((await api('POST', `/inventory/machines/${r.c}/restock`, r.fenced, {})).status).toBe(404);
    expect((await api('POST', `/machines/${r.c}/commands/dispense`, r.fenced, { aisleNo: 1, reason: 'test' })).status).toBe(404);

    expect(okData(await api<{ name: string }>('PATCH', `/machines/${r.a}`, r.fenced, { name: 'Lobby' })).name).toBe('Lobby');
    expect(okData(await api<{ maxStock: number }>('PUT', `/inventory/machines/${r.a}/aisles/1`, r.fenced, { maxStock: 12 })).maxStock).toBe(12);
    okData(await api('POST', `/inventory/machines/${r.a}/restock`, r.fenced, {}));
    await setAisle(t, r.a, 2, { stock: 3, priceCents: 150 });
    expect((await api('POST', `/machines/${r.a}/commands/dispense`, r.fenced, { aisleNo: 2, reason: 'goodwill' })).status).toBe(200);
    const inv = okData(await api<{ machineNo: string }[]>('GET', '/inventory', r.fenced));
    expect(inv.map((m) => m.machineNo).sort()).toEqual([r.a, r.b].sort());
    // the operator itself still sees all three
    expect(okData(await api<{ total: number }>('GET', '/machines', r.owner.headers)).total).toBe(3);
  });

  it('orders: the list, the summary and one order show only the group machines', async () => {
    const r = await route();
    const now = t.clock.now();
    const inA = await paidOrder(t, { machineNo: r.a, createdAt: now - 60_000 });
    const inC = await paidOrder(t, { machineNo: r.c, createdAt: now - 30_000 });
    const page = okData(await api<{ total: number; records: { orderNumber: string }[] }>('GET', '/orders', r.fenced));
    expect(page.records.map((o) => o.orderNumber)).toEqual([inA]);
    expect(page.total).toBe(1);
    expect((await api('GET', `/orders/${inC}`, r.fenced)).status).toBe(404);
    expect(okData(await api<{ orderNumber: string }>('GET', `/orders/${inA}`, r.fenced)).orderNumber).toBe(inA);
    expect((await api('GET', '/orders', r.fenced, undefined, { machineNo: r.c })).status).toBe(404);
    const summary = okData(await api<{ count: number; byMachine: { machineNo: string }[] }>('GET', '/orders/summary', r.fenced));
    expect(summary.count).toBe(1);
    expect(summary.byMachine.map((m) => m.machineNo)).toEqual([r.a]);
    expect(okData(await api<{ total: number }>('GET', '/orders', r.owner.headers)).total).toBe(2);
  });

  it('everything not machine-scoped is closed to a session; money fields of a machine too', async () => {
    const r = await route();
    const closed: [string, string, unknown?][] = [
      ['GET', '/pnl'],
      ['GET', '/balance-sheet'],
      ['GET', '/crm/venues'],
      ['GET', '/crew/mine'],
      ['GET', '/access/groups'],
      ['PUT', '/access/assignment', { username: r.driver.email, groupId: null }],
      ['POST', '/access/session', { operatorEmail: r.owner.email }],
      ['POST', '/machines/register', { machineNo: freshSerial('ACC') }],
      ['GET', '/inventory/lots'],
      ['GET', '/campaigns'],
      ['GET', '/auth/credentials'],
    ];
    for (const [method, path, body] of closed) {
      const res = await api(method, path, r.fenced, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe('Not available to an access-group session');
    }
    for (const body of [{ salesTaxRate: 0.08 }, { venueId: null }, { name: 'x', salesTaxRate: 0.08 }]) {
      const res = await api('PATCH', `/machines/${r.a}`, r.fenced, body);
      expect(res.status).toBe(403);
    }
    expect(okData(await api<{ salesTaxRate: number | null }>('GET', `/machines/${r.a}`, r.fenced)).salesTaxRate).toBeNull();
    // the session is no admin's: /auth/me says what it is
    expect(okData(await api<{ authMethod: string; admin: boolean }>('GET', '/auth/me', r.fenced))).toMatchObject({ authMethod: 'access', admin: false });
  });

  it("a read-only group's session cannot write (403), and holds no scope its opener lacked", async () => {
    const r = await route(['machines:read', 'inventory:read']);
    expect((await api('PUT', `/inventory/machines/${r.a}/aisles/1`, r.fenced, { maxStock: 12 })).status).toBe(403);
    expect(okData(await api(`GET`, `/inventory/machines/${r.a}`, r.fenced)));
    const narrow = { 'x-api-key': await mintKey(db(), r.driver.id, 'machines:read') };
    const s = okData(await api<AccessSession>('POST', '/access/session', narrow, { operatorEmail: r.owner.email }));
    expect(s.scope).toBe('machines:read');
    expect((await api('GET', `/inventory/machines/${r.a}`, bearer(s.token))).status).toBe(403);
    const none = { 'x-api-key': await mintKey(db(), r.driver.id, 'ads:read') };
    expect((await api('POST', '/access/session', none, { operatorEmail: r.owner.email })).status).toBe(403);
  });

  it('the fence is live: a group edit, an unassignment or leaving the crew apply on the next request', async () => {
    const r = await route();
    expect((await api('GET', `/machines/${r.b}`, r.fenced)).status).toBe(200);
    const edited = okData(
      await api<AccessGroup>('PUT', `/access/groups/${r.group.id}`, r.owner.headers, { name: 'North', machineNos: [r.a, r.c], scopes: ['machines:read'] }),
    );
    expect(edited.machineNos).toEqual([r.a, r.c].sort());
    expect((await api('GET', `/machines/${r.b}`, r.fenced)).status).toBe(404);
    expect((await api('GET', `/machines/${r.c}`, r.fenced)).status).toBe(200);
    expect((await api('PATCH', `/machines/${r.c}`, r.fenced, { name: 'y' })).status).toBe(403);

    okData(await api('PUT', '/access/assignment', r.owner.headers, { username: r.driver.email, groupId: null }));
    expect((await api('GET', `/machines/${r.c}`, r.fenced)).status).toBe(401);
    expect((await api('POST', '/access/session', r.driver.headers, { operatorEmail: r.owner.email })).status).toBe(404);

    okData(await api('PUT', '/access/assignment', r.owner.headers, { username: r.driver.email, groupId: r.group.id }));
    const again = bearer(okData(await api<AccessSession>('POST', '/access/session', r.driver.headers, { operatorEmail: r.owner.email })).token);
    expect((await api('GET', `/machines/${r.c}`, again)).status).toBe(200);
    okData(await api('DELETE', `/crew/${r.crew.id}/members/${encodeURIComponent(r.driver.email)}`, r.owner.headers));
    expect((await api('GET', `/machines/${r.c}`, again)).status).toBe(401);
    expect(okData(await api<AccessMe>('GET', '/access/me', r.driver.headers)).grants).toEqual([]);
    expect((await api('GET', '/access/assignment', r.owner.headers, undefined, { username: r.driver.email })).status).toBe(404);
  });

  it("restock runs: a crew person holding a group on the crew's operator works only the group's machines", async () => {
    const r = await route();
    const outside = await api('POST', '/restock', r.driver.headers, { machineNo: r.c, crewId: r.crew.id });
    expect(outside.status).toBe(404);
    expect(outside.body.message).toBe('Machine not found');
    const inside = okData(await api<{ id: string; status: string }>('POST', '/restock', r.driver.headers, { machineNo: r.a, crewId: r.crew.id }));
    expect(inside.status).toBe('planned');
    // the owner plans C for the crew: the driver sees the run but may not work it; cancelling is the planner's
    const ownersRun = okData(await api<{ id: string }>('POST', '/restock', r.owner.headers, { machineNo: r.c, crewId: r.crew.id }));
    expect((await api('GET', `/restock/${ownersRun.id}`, r.driver.headers)).status).toBe(200);
    for (const action of ['start', 'complete']) {
      const res = await api('POST', `/restock/${ownersRun.id}/${action}`, r.driver.headers, action === 'complete' ? { aisles: [] } : undefined);
      expect(res.status, action).toBe(403);
    }
    // without the assignment, crew membership alone decides
    okData(await api('PUT', '/access/assignment', r.owner.headers, { username: r.driver.email, groupId: null }));
    expect(okData(await api<{ status: string }>('POST', `/restock/${ownersRun.id}/start`, r.driver.headers)).status).toBe('in_progress');
  });

  it("the sandbox seed: dave holds alice's Downtown route and opens a session on her fleet", async () => {
    const dave = { 'x-api-key': SANDBOX_CREDENTIALS.dave.apiKey };
    const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
    expect(okData(await api<AccessMe>('GET', '/access/me', dave)).grants).toEqual([
      { operatorEmail: SANDBOX_CREDENTIALS.alice.email, operatorName: 'Alice Vending Co', groupId: 'acg_sbx_alice_route', groupName: 'Downtown route' },
    ]);
    const s = okData(await api<AccessSession>('POST', '/access/session', dave, { operatorEmail: SANDBOX_CREDENTIALS.alice.email }));
    const list = okData(await api<{ records: { machineNo: string }[] }>('GET', '/machines', bearer(s.token)));
    expect(list.records.map((m) => m.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002']);
    expect((await api('GET', '/machines/SBX-ALICE-0003', bearer(s.token))).status).toBe(404);
    expect(okData(await api<AccessGroup[]>('GET', '/access/groups', alice)).map((g) => g.usernames)).toEqual([[SANDBOX_CREDENTIALS.dave.email]]);
  });

  it('a session ends when it expires', async () => {
    const r = await route();
    expect((await api('GET', `/machines/${r.a}`, r.fenced)).status).toBe(200);
    t.clock.advance(12 * 3600 * 1000 + 1);
    expect((await api('GET', `/machines/${r.a}`, r.fenced)).status).toBe(401);
  });

  it('bad input is refused with nothing written', async () => {
    const r = await route();
    const foreign = await register(r.outsider);
    const before = await db().selectFrom('access_groups').select('id').execute();
    const bad = await api('POST', '/access/groups', r.owner.headers, { name: 'South', machineNos: [r.a, foreign] });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(foreign);
    expect((await api('POST', '/access/groups', r.owner.headers, { name: 'North', machineNos: [] })).status).toBe(409);
    expect((await api('POST', '/access/groups', r.owner.headers, { name: 'S', machineNos: [], scopes: ['ads:write'] })).status).toBe(400);
    expect((await api('POST', '/access/groups', r.owner.headers, { name: 'S', machineNos: [], scopes: [] })).status).toBe(400);
    expect((await api('POST', '/access/groups', r.owner.headers, { name: '', machineNos: [] })).status).toBe(400);
    expect((await api('POST', '/access/groups', r.owner.headers, { name: 'S', machineNos: [], extra: 1 })).status).toBe(400);
    expect(await db().selectFrom('access_groups').select('id').execute()).toEqual(before);
    // assignment: not one of the operator's people, the operator itself, an unknown group
    expect((await api('PUT', '/access/assignment', r.owner.headers, { username: r.outsider.email, groupId: r.group.id })).status).toBe(400);
    expect((await api('PUT', '/access/assignment', r.owner.headers, { username: r.owner.email, groupId: r.group.id })).status).toBe(400);
    expect((await api('PUT', '/access/assignment', r.owner.headers, { username: r.driver.email, groupId: 'acg_nope' })).status).toBe(404);
    expect((await api('PUT', '/access/assignment', r.owner.headers, { username: 'not-an-email', groupId: null })).status).toBe(400);
    expect((await api('GET', '/access/assignment', r.owner.headers, undefined, { username: r.outsider.email })).status).toBe(404);
    expect((await api('GET', '/access/assignment', r.owner.headers)).status).toBe(400);
    expect((await api('PUT', `/access/groups/acg_nope`, r.owner.headers, { name: 'X', machineNos: [] })).status).toBe(404);
    expect((await api('POST', '/access/session', r.outsider.headers, { operatorEmail: r.owner.email })).status).toBe(404);
    expect((await api('POST', '/access/session', r.driver.headers, { operatorEmail: 'nobody@test.vend.test' })).status).toBe(404);
    // the driver's own assignment is unchanged by all of it
    expect(okData(await api<Assignment>('GET', '/access/assignment', r.owner.headers, undefined, { username: r.driver.email })).groupId).toBe(r.group.id);
  });

  it("role matrix: another operator (crew admin, member or outsider) never reaches the owner's groups or assignments", async () => {
    const r = await route();
    const [admin, member] = [await person(), await person()];
    const inv = okData(
      await api<{ inviteId: string; token: string }>('POST', `/crew/${r.crew.id}/invite`, r.owner.headers, { email: admin.email, role: 'admin' }),
    );
    okData(await api('POST', `/crew/accept-invite/${inv.inviteId}`, admin.headers, undefined, { token: inv.token }));
    await joinCrew(r.owner, member, r.crew.id);
    const cases: { who: Person; label: string }[] = [
      { who: r.owner, label: 'owner' },
      { who: admin, label: 'crew admin' },
      { who: member, label: 'crew member' },
      { who: r.outsider, label: 'outsider' },
    ];
    for (const { who, label } of cases) {
      const isOwner = who === r.owner;
      const groups = okData(await api<AccessGroup[]>('GET', '/access/groups', who.headers));
      expect(
        groups.map((g) => g.id),
        label,
      ).toEqual(isOwner ? [r.group.id] : []);
      const edit = await api('PUT', `/access/groups/${r.group.id}`, who.headers, { name: 'North', machineNos: [r.a, r.b] });
      expect(edit.status, label).toBe(isOwner ? 200 : 404);
      const assign = await api('PUT', '/access/assignment', who.headers, { username: r.driver.email, groupId: r.group.id });
      // the driver is none of a non-owner's people (their own crews are empty): 400 before the group is looked at
      expect(assign.status, label).toBe(isOwner ? 200 : 400);
      const read = await api('GET', '/access/assignment', who.headers, undefined, { username: r.driver.email });
      expect(read.status, label).toBe(isOwner ? 200 : 404);
      const session = await api('POST', '/access/session', who.headers, { operatorEmail: r.owner.email });
      // nobody here holds a group on the owner's fleet (the owner's own fleet needs no session)
      expect(session.status, label).toBe(404);
      expect(okData(await api<AccessMe>('GET', '/access/me', who.headers)).restricted).toBe(false);
    }
    // a crew admin assigned a group gets a session like any person of the crews
    okData(await api('PUT', '/access/assignment', r.owner.headers, { username: admin.email, groupId: r.group.id }));
    expect((await api('POST', '/access/session', admin.headers, { operatorEmail: r.owner.email })).status).toBe(200);
  });

  it('scopes of the endpoints: reads need machines:read, writes machines:write', async () => {
    const r = await route();
    const readOnly = { 'x-api-key': await mintKey(db(), r.owner.id, 'machines:read') };
    const none = { 'x-api-key': await mintKey(db(), r.owner.id, 'ads:read') };
    expect((await api('GET', '/access/groups', readOnly)).status).toBe(200);
    expect((await api('GET', '/access/groups', none)).status).toBe(403);
    expect((await api('POST', '/access/groups', readOnly, { name: 'Z', machineNos: [] })).status).toBe(403);
    expect((await api('PUT', '/access/assignment', readOnly, { username: r.driver.email, groupId: null })).status).toBe(403);
    expect((await api('GET', '/access/me', none)).status).toBe(200);
    expect((await api('GET', '/access/me', {})).status).toBe(401);
  });

  it('a new account (POST /accounts) starts with its default crew on first visit, unfenced, and can be given a group', async () => {
    const r = await route();
    const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
    const email = `driver-${t.clock.now()}-${Math.random().toString(16).slice(2, 8)}@test.vend.test`;
    const account = okData(await api<{ apiKey: { key: string } }>('POST', '/accounts', admin, { email, name: 'New driver' }));
    const fresh = { 'x-api-key': account.apiKey.key };
    const crews = okData(await api<{ isDefault: boolean; myRole: string; createdBy: string }[]>('GET', '/crew/mine', fresh));
    expect(crews).toEqual([expect.objectContaining({ isDefault: true, myRole: 'owner', createdBy: email })]);
    expect(okData(await api<AccessMe>('GET', '/access/me', fresh))).toMatchObject({ username: email, restricted: false, group: null, grants: [] });
    expect(okData(await api<AccessGroup[]>('GET', '/access/groups', fresh))).toEqual([]);
    await joinCrew(r.owner, { id: '', email, headers: fresh }, r.crew.id);
    okData(await api('PUT', '/access/assignment', r.owner.headers, { username: email, groupId: r.group.id }));
    const s = okData(await api<AccessSession>('POST', '/access/session', fresh, { operatorEmail: r.owner.email }));
    expect(okData(await api<{ total: number }>('GET', '/machines', bearer(s.token))).total).toBe(2);
  });
});
