import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData, type Answer, type Body } from '../../testing/answers.ts';
import type { Crew, CrewInvite } from '../crews/crews.schemas.ts';
import { freshSerial, mintKey, newOperator } from '../machines/machines.factories.ts';
import type { RestockRun } from './restock.schemas.ts';
import { SEED_CREW_ID, SEED_RUN_ID } from './sandbox-seed.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };
type Page<T> = { page: number; size: number; total: number; records: T[] };
type AisleSet = { stock: number; max: number; faulted?: boolean; sku?: string | null; product?: string | null };

describe.each(DIALECTS)('restock runs on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const req = <T = unknown>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());

  const plan = (who: Person, machineNo: string, more: Record<string, unknown> = {}) => req<RestockRun>('POST', '/restock', who.headers, { machineNo, ...more });
  const move = (who: Person, runId: string, action: 'start' | 'complete' | 'cancel', body?: unknown) =>
    req<RestockRun>('POST', `/restock/${runId}/${action}`, who.headers, body ?? (action === 'complete' ? { aisles: [] } : undefined));
  const getRun = (who: Person, runId: string) => req<RestockRun>('GET', `/restock/${runId}`, who.headers);

  /** A machine registered by `owner`, its aisles set as given (the rest: empty of max 10, no SKU). */
  const machineOf = async (owner: Person, aisles: Record<number, AisleSet> = {}): Promise<string> => {
    const machineNo = freshSerial('RST');
    okData(await req('POST', '/machines/register', owner.headers, { machineNo }));
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    await db()
      .updateTable('aisles')
      .set({ current_stock: 0, max_stock: 10, faulted: 0, sku: null, product_name: null })
      .where('machine_id', '=', m.id)
      .execute();
    for (const [no, a] of Object.entries(aisles))
      await db()
        .updateTable('aisles')
        .set({ current_stock: a.stock, max_stock: a.max, faulted: a.faulted ? 1 : 0, sku: a.sku ?? null, product_name: a.product ?? null })
        .where('machine_id', '=', m.id)
        .where('aisle_no', '=', Number(no))
        .execute();
    return machineNo;
  };
  const stockOf = async (machineNo: string): Promise<Record<number, number>> => {
    const rows = await db()
      .selectFrom('aisles')
      .innerJoin('machines', 'machines.id', 'aisles.machine_id')
      .select(['aisles.aisle_no', 'aisles.current_stock'])
      .where('machines.machine_no', '=', machineNo)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.aisle_no, r.current_stock]));
  };
  const auditOf = (runId: string) =>
    db()
      .selectFrom('audit_log')
      .select('action')
      .where('resource', '=', `restock:${runId}`)
      .execute()
      .then((rows) => rows.map((r) => r.action).sort());

  const myDefaultCrew = async (who: Person) => okData(await req<Crew[]>('GET', '/crew/mine', who.headers)).find((c) => c.isDefault)!;
  const join = async (owner: Person, crewId: string, who: Person, role: string) => {
    const inv = okData(await req<CrewInvite>('POST', `/crew/${crewId}/invite`, owner.headers, { email: who.email, role }));
    okData(await req('POST', `/crew/accept-invite/${inv.inviteId}`, who.headers, undefined, { token: inv.token }));
  };
  /** An owner's default crew with an admin and a member, an outsider, and one machine of the owner's fleet. */
  const team = async (aisles: Record<number, AisleSet> = {}) => {
    const [owner, admin, member, outsider] = [await person(), await person(), await person(), await person()];
    const crew = await myDefaultCrew(owner);
    await join(owner, crew.id, admin, 'admin');
    await join(owner, crew.id, member, 'member');
    const machineNo = await machineOf(owner, aisles);
    return { owner, admin, member, outsider, crew, machineNo };
  };

  it('plans from par levels: one line per aisle, faulted aisles pick nothing, totals by SKU; the first plan makes the default crew', async () => {
    const owner = await person();
    const machineNo = await machineOf(owner, {
      1: { stock: 2, max: 10, sku: 'SKU-COLA', product: 'Cola' },
      2: { stock: 0, max: 8, faulted: true, sku: 'SKU-TEA', product: 'Iced tea' },
      3: { stock: 12, max: 12, sku: 'SKU-COLA', product: 'Cola' },
      4: { stock: 9, max: 12, sku: 'SKU-COLA', product: 'Cola' },
      5: { stock: 1, max: 6 },
    });
    expect(await db().selectFrom('crews').select('id').where('default_for', '=', owner.email).execute()).toEqual([]);
    const run = okData(await plan(owner, machineNo, { notes: '  back door code 1234 ' }));
    expect(run).toMatchObject({
      machineNo,
      status: 'planned',
      notes: 'back door code 1234',
      createdBy: owner.email,
      createdAt: new Date(t.clock.now()).toISOString().replace('Z', '+0000'),
      startedBy: null,
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      cancelReason: null,
    });
    expect(run.id).toMatch(/^rst_/);
    expect(run.lines).toHaveLength(10);
    expect(run.lines.slice(0, 5)).toEqual([
      { aisleNo: 1, sku: 'SKU-COLA', productName: 'Cola', stockAtPlan: 2, par: 10, pick: 8, faulted: false, filled: null, stockAfter: null },
      { aisleNo: 2, sku: 'SKU-TEA', productName: 'Iced tea', stockAtPlan: 0, par: 8, pick: 0, faulted: true, filled: null, stockAfter: null },
      { aisleNo: 3, sku: 'SKU-COLA', productName: 'Cola', stockAtPlan: 12, par: 12, pick: 0, faulted: false, filled: null, stockAfter: null },
      { aisleNo: 4, sku: 'SKU-COLA', productName: 'Cola', stockAtPlan: 9, par: 12, pick: 3, faulted: false, filled: null, stockAfter: null },
      { aisleNo: 5, sku: null, productName: null, stockAtPlan: 1, par: 6, pick: 5, faulted: false, filled: null, stockAfter: null },
    ]);
    expect(run.totals).toEqual([
      { sku: 'SKU-COLA', productName: 'Cola', pick: 11 },
      { sku: null, productName: 'aisle 5', pick: 5 },
      ...[6, 7, 8, 9, 10].map((n) => ({ sku: null, productName: `aisle ${n}`, pick: 10 })),
    ]);
    const crew = await myDefaultCrew(owner);
    expect(run.crewId).toBe(crew.id);
    expect(await db().selectFrom('crews').select('id').where('default_for', '=', owner.email).execute()).toHaveLength(1);
    expect(okData(await getRun(owner, run.id))).toEqual(run);
    expect(await auditOf(run.id)).toEqual(['restock.plan']);
    // planning changes no stock
    expect((await stockOf(machineNo))[1]).toBe(2);
  });

  it('the state machine: every allowed move, and every other one 409 naming the current status', async () => {
    const { owner, member, machineNo } = await team();
    const refused = async (runId: string, action: 'start' | 'complete' | 'cancel', status: string) => {
      const r = await move(owner, runId, action);
      expectRefused(r, 409);
      expect(r.body.message, `${action} from ${status}`).toBe(`Cannot ${action} a restock run that is ${status}`);
    };
    // planned → in_progress → done
    const a = okData(await plan(member, machineNo));
    t.clock.advance(1000);
    const started = okData(await move(member, a.id, 'start'));
    expect(started).toMatchObject({ status: 'in_progress', startedBy: member.email, startedAt: new Date(t.clock.now()).toISOString().replace('Z', '+0000') });
    await refused(a.id, 'start', 'in_progress');
    t.clock.advance(1000);
    const done = okData(await move(owner, a.id, 'complete'));
    expect(done).toMatchObject({ status: 'done', startedBy: member.email, startedAt: started.startedAt, completedBy: owner.email });
    expect(done.completedAt).not.toBe(started.startedAt);
    for (const action of ['start', 'complete', 'cancel'] as const) await refused(a.id, action, 'done');
    // planned → done directly: completing implies starting
    const b = okData(await plan(owner, machineNo));
    const direct = okData(await move(member, b.id, 'complete'));
    expect(direct).toMatchObject({ status: 'done', startedBy: member.email, completedBy: member.email });
    expect(direct.startedAt).toBe(direct.completedAt);
    // planned → cancelled
    const c = okData(await plan(owner, machineNo));
    expect(okData(await move(owner, c.id, 'cancel', { reason: 'machine unreachable' }))).toMatchObject({
      status: 'cancelled',
      cancelledBy: owner.email,
      cancelReason: 'machine unreachable',
    });
    for (const action of ['start', 'complete', 'cancel'] as const) await refused(c.id, action, 'cancelled');
    // in_progress → cancelled
    const d = okData(await plan(owner, machineNo));
    okData(await move(owner, d.id, 'start'));
    expect(okData(await move(owner, d.id, 'cancel')).status).toBe('cancelled');
    expect(await auditOf(a.id)).toEqual(['restock.complete', 'restock.plan', 'restock.start']);
    expect(await auditOf(c.id)).toEqual(['restock.cancel', 'restock.plan']);
  });

  it('one open run per machine: another is 409 naming it, also when planned concurrently; a closed run frees the machine', async () => {
    const { owner, admin, machineNo } = await team();
    const first = okData(await plan(owner, machineNo));
    const again = await plan(admin, machineNo);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(first.id);
    okData(await move(owner, first.id, 'start'));
    expect((await plan(owner, machineNo)).body.message).toContain(first.id);
    okData(await move(owner, first.id, 'complete'));

    const racers = await Promise.all(Array.from({ length: 6 }, () => plan(owner, machineNo)));
    const winners = racers.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of racers.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.message).toContain(winners[0]!.body.data.id);
    }
    const open = await db()
      .selectFrom('restock_runs')
      .select('id')
      .where('machine_no', '=', machineNo)
      .where('status', 'in', ['planned', 'in_progress'])
      .execute();
    expect(open).toEqual([{ id: winners[0]!.body.data.id }]);
  });

  it('role matrix: owner, admin, member and outsider on every restock endpoint', async () => {
    const { owner, admin, member, outsider, machineNo } = await team();
    const who = { owner, admin, member, outsider };
    /** Cancels the machine's open run, if any (by the owner). */
    const clear = async () => {
      const open = await db()
        .selectFrom('restock_runs')
        .select('id')
        .where('machine_no', '=', machineNo)
        .where('status', 'in', ['planned', 'in_progress'])
        .execute();
      for (const o of open) okData(await move(owner, o.id, 'cancel'));
    };
    /** A fresh planned run by the owner. */
    const fresh = async () => {
      await clear();
      return okData(await plan(owner, machineNo)).id;
    };
    const statusOf = async (p: Person, what: string): Promise<number> => {
      switch (what) {
        case 'create':
          await clear();
          return (await plan(p, machineNo)).status;
        case 'list': {
          const runId = await fresh();
          const r = await req<Page<RestockRun>>('GET', '/restock', p.headers);
          return r.status === 200 && r.body.data.records.some((x) => x.id === runId) ? 200 : 404;
        }
        case 'get':
          return (await getRun(p, await fresh())).status;
        case 'start':
          return (await move(p, await fresh(), 'start')).status;
        case 'complete':
          return (await move(p, await fresh(), 'complete')).status;
        default:
          return (await move(p, await fresh(), 'cancel')).status;
      }
    };
    const table: Record<string, [number, number, number, number]> = {
      //          owner admin member outsider
      create: [200, 200, 200, 404],
      list: [200, 200, 200, 404],
      get: [200, 200, 200, 404],
      start: [200, 200, 200, 404],
      complete: [200, 200, 200, 404],
      cancel: [200, 200, 403, 404],
    };
    const got: Record<string, number[]> = {};
    for (const what of Object.keys(table)) {
      got[what] = [];
      for (const p of Object.values(who)) got[what].push(await statusOf(p, what));
    }
    expect(got).toEqual(table);
    // a member cancels a run they planned
    await clear();
    const mine = okData(await plan(member, machineNo));
    expect(okData(await move(member, mine.id, 'cancel')).cancelledBy).toBe(member.email);
    // the outsider's answers say nothing
    const hidden = await getRun(outsider, mine.id);
    expect([hidden.status, hidden.body.message]).toEqual([404, 'Restock run not found']);
    const foreign = await plan(outsider, machineNo);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'Machine not found']);
  });

  it("a member of crew A cannot run machines of crew B's fleet; crewId picks the crew", async () => {
    const a = await team();
    const b = await team();
    const foreign = await plan(a.member, b.machineNo);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'Machine not found']);
    const viaOwnCrew = await plan(a.member, b.machineNo, { crewId: a.crew.id });
    expect([viaOwnCrew.status, viaOwnCrew.body.message]).toEqual([404, 'Machine not found']);
    const viaTheirCrew = await plan(a.member, b.machineNo, { crewId: b.crew.id });
    expect([viaTheirCrew.status, viaTheirCrew.body.message]).toEqual([404, 'Crew not found']);
    const unknownMachine = await plan(a.owner, 'RST-NOPE-0000');
    expect([unknownMachine.status, unknownMachine.body.message]).toEqual([404, 'Machine not found']);
    const theirs = okData(await plan(b.member, b.machineNo));
    expect((await getRun(a.owner, theirs.id)).status).toBe(404);
    expect((await move(a.owner, theirs.id, 'complete')).status).toBe(404);
    expect(okData(await req<Page<RestockRun>>('GET', '/restock', a.member.headers)).records).toEqual([]);

    // b's member who also joins a's crew runs a's machines through a's crew, the oldest crew over the machine
    t.clock.advance(1);
    const second = okData(await req<Crew>('POST', '/crew', a.owner.headers, { name: 'Night shift' }));
    await join(a.owner, second.id, b.member, 'member');
    await join(a.owner, a.crew.id, b.member, 'member');
    const picked = okData(await plan(b.member, a.machineNo));
    expect(picked.crewId).toBe(a.crew.id);
    okData(await move(b.member, picked.id, 'cancel'));
    expect(okData(await plan(b.member, a.machineNo, { crewId: second.id })).crewId).toBe(second.id);
    // the owner who left their default crew and has no other crew over the machine: 404
    const loner = await person();
    const lonerMachine = await machineOf(loner);
    const own = await myDefaultCrew(loner);
    const deputy = await person();
    await join(loner, own.id, deputy, 'owner');
    okData(await req('DELETE', `/crew/${own.id}/members/${encodeURIComponent(loner.email)}`, loner.headers));
    expect((await plan(loner, lonerMachine)).status).toBe(404);
    expect(okData(await plan(deputy, lonerMachine)).crewId).toBe(own.id);
  });

  it('completion changes stock exactly once under concurrent completion', async () => {
    const { owner, admin, member, machineNo } = await team({ 1: { stock: 2, max: 10 }, 2: { stock: 5, max: 10 }, 3: { stock: 0, max: 10 } });
    const run = okData(await plan(owner, machineNo));
    const body = {
      aisles: [
        { aisleNo: 1, filled: 8 },
        { aisleNo: 2, filled: 3 },
        { aisleNo: 3, filled: 4 },
      ],
    };
    const people = [owner, admin, member, owner, admin, member, owner, admin];
    const results = await Promise.all(people.map((p) => move(p, run.id, 'complete', body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.message).toBe('Cannot complete a restock run that is done');
    const stock = await stockOf(machineNo);
    expect([stock[1], stock[2], stock[3], stock[4]]).toEqual([10, 8, 4, 0]);
    expect(await auditOf(run.id)).toEqual(['restock.complete', 'restock.plan']);
    const done = okData(await getRun(member, run.id));
    expect(done.lines.slice(0, 4).map((l) => [l.aisleNo, l.filled, l.stockAfter])).toEqual([
      [1, 8, 10],
      [2, 3, 8],
      [3, 4, 4],
      [4, 0, 0],
    ]);
  });

  it('completion clamps at maxStock; aisles not listed keep their stock and record filled 0', async () => {
    const { owner, machineNo } = await team({ 1: { stock: 8, max: 10 }, 2: { stock: 3, max: 6 }, 3: { stock: 5, max: 12 } });
    const run = okData(await plan(owner, machineNo));
    // stock sold between planning and the visit: the run adds to what is there now
    await db()
      .updateTable('aisles')
      .set({ current_stock: 1 })
      .where('aisle_no', '=', 2)
      .where('machine_id', '=', (await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow()).id)
      .execute();
    const done = okData(
      await move(owner, run.id, 'complete', {
        aisles: [
          { aisleNo: 1, filled: 5 },
          { aisleNo: 2, filled: 3 },
        ],
      }),
    );
    expect(done.lines.slice(0, 3).map((l) => [l.aisleNo, l.stockAtPlan, l.pick, l.filled, l.stockAfter])).toEqual([
      [1, 8, 2, 5, 10],
      [2, 3, 3, 3, 4],
      [3, 5, 7, 0, 5],
    ]);
    const stock = await stockOf(machineNo);
    expect([stock[1], stock[2], stock[3]]).toEqual([10, 4, 5]);
  });

  it('bad bodies and queries: 400 (422 for wrong types) and nothing written', async () => {
    const { owner, machineNo } = await team({ 1: { stock: 1, max: 10 } });
    const run = okData(await plan(owner, machineNo));
    const before = {
      runs: await db().selectFrom('restock_runs').selectAll().orderBy('id').execute(),
      lines: await db().selectFrom('restock_run_lines').selectAll().orderBy('run_id').orderBy('aisle_no').execute(),
      stock: await stockOf(machineNo),
      audit: await auditOf(run.id),
    };
    const cases: [string, Promise<Answer<unknown>>, number][] = [
      ['plan without machineNo', req('POST', '/restock', owner.headers, {}), 400],
      ['plan with an unknown field', plan(owner, machineNo, { aisles: [1] }), 400],
      ['plan with notes too long', plan(owner, machineNo, { notes: 'x'.repeat(256) }), 400],
      ['plan with a number for machineNo', req('POST', '/restock', owner.headers, { machineNo: 7 }), 422],
      [
        'complete listing an aisle twice',
        move(owner, run.id, 'complete', {
          aisles: [
            { aisleNo: 1, filled: 1 },
            { aisleNo: 1, filled: 2 },
          ],
        }),
        400,
      ],
      [
        'complete an aisle the machine lacks',
        move(owner, run.id, 'complete', {
          aisles: [
            { aisleNo: 1, filled: 1 },
            { aisleNo: 11, filled: 2 },
          ],
        }),
        400,
      ],
      ['complete with negative filled', move(owner, run.id, 'complete', { aisles: [{ aisleNo: 1, filled: -1 }] }), 400],
      [
        'complete with fractional filled (a whole number is a type here, as in inventory)',
        move(owner, run.id, 'complete', { aisles: [{ aisleNo: 1, filled: 1.5 }] }),
        422,
      ],
      ['complete without aisles', move(owner, run.id, 'complete', {}), 400],
      ['complete with a string for filled', move(owner, run.id, 'complete', { aisles: [{ aisleNo: 1, filled: '3' }] }), 422],
      ['cancel with an unknown field', move(owner, run.id, 'cancel', { why: 'x' }), 400],
      ['list by an unknown status', req('GET', '/restock', owner.headers, undefined, { status: 'lost' }), 400],
      ['list with size 101', req('GET', '/restock', owner.headers, undefined, { size: '101' }), 400],
    ];
    for (const [name, r, status] of cases) {
      const res = await r;
      expect(res.status, `${name}: ${res.text}`).toBe(status);
      expect(res.body).toMatchObject({ code: status, data: null });
    }
    expect((await move(owner, run.id, 'complete', { aisles: [{ aisleNo: 11, filled: 2 }] })).body.message).toMatch(/Bad request/);
    expect({
      runs: await db().selectFrom('restock_runs').selectAll().orderBy('id').execute(),
      lines: await db().selectFrom('restock_run_lines').selectAll().orderBy('run_id').orderBy('aisle_no').execute(),
      stock: await stockOf(machineNo),
      audit: await auditOf(run.id),
    }).toEqual(before);
  });

  it('lists the runs of the caller’s crews, newest first, by status, machine and crew, paged', async () => {
    const { owner, member, crew, machineNo } = await team();
    const other = await machineOf(owner);
    const a = okData(await plan(owner, machineNo));
    t.clock.advance(1000);
    okData(await move(owner, a.id, 'complete'));
    const b = okData(await plan(member, machineNo));
    t.clock.advance(1000);
    const c = okData(await plan(member, other));
    const list = (q: Record<string, string> = {}) => req<Page<RestockRun>>('GET', '/restock', member.headers, undefined, q).then((r) => okData(r));
    const all = await list();
    expect(all.records.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect(all.total).toBe(3);
    expect(all.records[2]!.lines).toHaveLength(10);
    expect((await list({ status: 'planned' })).records.map((r) => r.id)).toEqual([c.id, b.id]);
    expect((await list({ status: 'done' })).records.map((r) => r.id)).toEqual([a.id]);
    expect((await list({ machineNo: other })).records.map((r) => r.id)).toEqual([c.id]);
    expect((await list({ crewId: crew.id })).total).toBe(3);
    expect((await list({ crewId: 'crw_someone_else' })).total).toBe(0);
    const page2 = await list({ size: '2', page: '2' });
    expect([page2.page, page2.size, page2.total, page2.records.map((r) => r.id)]).toEqual([2, 2, 3, [a.id]]);
  });

  it('scopes: reads need inventory:read, writes inventory:write; no credential is 401', async () => {
    const { owner, machineNo } = await team();
    const run = okData(await plan(owner, machineNo));
    const readOnly = { 'x-api-key': await mintKey(db(), owner.id, 'inventory:read', t.clock.now()) };
    const writeOnly = { 'x-api-key': await mintKey(db(), owner.id, 'inventory:write', t.clock.now()) };
    expect((await req('GET', `/restock/${run.id}`, readOnly)).status).toBe(200);
    expect((await req('GET', '/restock', writeOnly)).status).toBe(403);
    expect((await req('POST', `/restock/${run.id}/start`, readOnly)).status).toBe(403);
    expect((await req('POST', `/restock/${run.id}/start`, writeOnly)).status).toBe(200);
    expect((await req('GET', '/restock', {})).status).toBe(401);
  });
});

describe.each(DIALECTS)('restock sandbox seed on %s', (dialect) => {
  const t = suiteServer(dialect);
  const dave = { 'x-api-key': SANDBOX_CREDENTIALS.dave.apiKey };
  const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
  const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
  const get = <T>(path: string, headers: H, query?: Record<string, string>) =>
    call<Body<T>>(t.url, 'GET', `/api/v1${path}`, { headers, ...(query ? { query } : {}) }).then((r) => okData(r));

  it("alice's default crew has dave; one planned run of her gym kiosk, which dave can complete; a reset restores it", async () => {
    const crews = await get<Crew[]>('/crew/mine', alice);
    expect(crews.map((c) => [c.id, c.isDefault, c.myRole, c.memberCount])).toEqual([[SEED_CREW_ID, true, 'owner', 2]]);
    const members = await get<{ email: string; role: string }[]>(`/crew/${SEED_CREW_ID}/members`, dave);
    expect(members.map((m) => [m.email, m.role])).toEqual([
      [SANDBOX_CREDENTIALS.alice.email, 'owner'],
      [SANDBOX_CREDENTIALS.dave.email, 'member'],
    ]);
    const runs = await get<Page<RestockRun>>('/restock', dave);
    expect(runs.records).toHaveLength(1);
    const [seeded] = runs.records;
    expect(seeded).toMatchObject({
      id: SEED_RUN_ID,
      crewId: SEED_CREW_ID,
      machineNo: 'SBX-ALICE-0002',
      status: 'planned',
      createdBy: SANDBOX_CREDENTIALS.alice.email,
    });
    expect(seeded!.lines).toHaveLength(10);
    expect(seeded!.totals.length).toBeGreaterThan(0);
    expect(await get('/inventory', dave)).toEqual([]);

    const done = await call<Body<RestockRun>>(t.url, 'POST', `/api/v1/restock/${SEED_RUN_ID}/complete`, {
      headers: dave,
      json: { aisles: seeded!.lines.filter((l) => l.pick > 0).map((l) => ({ aisleNo: l.aisleNo, filled: l.pick })) },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.lines.every((l) => l.faulted || l.stockAfter === l.par)).toBe(true);

    const reset = await call(t.url, 'POST', '/sandbox/reset', { headers: admin, query: { wipeMoney: 'true' } });
    expect(reset.status, reset.text).toBe(200);
    const after = await get<Page<RestockRun>>('/restock', dave);
    expect(after.records.map((r) => [r.id, r.status, r.lines])).toEqual([[SEED_RUN_ID, 'planned', seeded!.lines]]);
    expect(await get<Crew[]>('/crew/mine', alice)).toEqual(crews);
  });
});
