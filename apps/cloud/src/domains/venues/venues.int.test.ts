import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { mintKey, snapshot } from '../machines/machines.factories.ts';
import { admin, alice, bob, machinesApi } from '../machines/machines.test-support.ts';
import type { Venue } from './venues.schemas.ts';

type VenuePage = { page: number; size: number; total: number; records: Venue[] };

const DAY = 86_400_000;
const ts = (ms: number) => formatTimestamp(ms)!;

describe.each(DIALECTS)('venues and host commission on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api, register, patch } = machinesApi(() => t);
  type H = Record<string, string>;
  const venues = <T = Venue>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    api<T>(method, `/api/v1/crm/venues${path}`, headers, json, query);
  const list = (headers: H, query: Record<string, string>) => venues<VenuePage>('GET', '', headers, undefined, query);
  const create = async (body: Record<string, unknown>, headers: H = alice) => {
    const r = await venues('POST', '', headers, { name: 'Corner Deli', revShareBps: 1500, ...body });
    return okData(r);
  };
  const read = async (id: string, headers: H = alice) => {
    const r = await venues('GET', `/${id}`, headers);
    return okData(r);
  };
  /** A sale on the machine at `at`: it "already sold" from then on. */
  const sell = async (machineNo: string, at: number) => {
    const m = await db().selectFrom('machines').select(['id', 'operator_id']).where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    await db()
      .insertInto('orders')
      .values({
        order_number: `VEN${randomBytes(6).toString('hex')}`,
        machine_id: m.id,
        operator_id: m.operator_id,
        aisle_no: 1,
        quantity: 1,
        pay_status: 'shipped',
        paid_cents: 150,
        charged_cents: 150,
        channel: 'walkup',
        pay_method: 'cash',
        vended: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
  };
  const state = async () => JSON.stringify([await snapshot(db()), await db().selectFrom('venues').selectAll().orderBy('id').execute()]);
  const audit = (resource: string) =>
    db()
      .selectFrom('audit_log')
      .select('action')
      .where('resource', '=', resource)
      .orderBy('timestamp')
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => r.action).sort());

  it('creates a venue: its machines move there, commission from the move; reads and list show it; audited', async () => {
    t.clock.advance(1000);
    const [m1, m2] = [await register(alice), await register(alice)];
    const now = t.clock.now();
    const v = await create({
      address: '1 Main St',
      machineNos: [m2.machineNo, m1.machineNo, m1.machineNo],
      kioskMachineNo: m1.machineNo,
      deploymentDate: '2026-11-01',
    });
    expect(v).toMatchObject({
      name: 'Corner Deli',
      address: '1 Main St',
      revShareBps: 1500,
      deploymentDate: '2026-11-01',
      kioskMachineNo: m1.machineNo,
      machineNos: [m1.machineNo, m2.machineNo].sort(),
      createdAt: ts(now),
    });
    expect(v.machines).toEqual(
      [m1, m2]
        .map((m) => ({ machineNo: m.machineNo, attachedAt: ts(now), commissionFrom: ts(now), commissionRule: 'move' }))
        .sort((a, b) => a.machineNo.localeCompare(b.machineNo)),
    );
    expect(v.stints.every((s) => s.until === null)).toBe(true);
    expect(v).not.toHaveProperty('operatorEmail');
    expect(await read(v.id)).toEqual(v);
    const machine = await api('GET', `/api/v1/machines/${m1.machineNo}`, alice);
    expect(machine.body.data.venueId).toBe(v.id);
    expect(await audit(`venue:${v.id}`)).toEqual(['venues.create']);
    expect(await audit(`machine:${m1.machineNo}`)).toEqual(['machines.register', 'venues.attach']);

    const page = await list(alice, { page: '1', size: '100' });
    expect(page.status).toBe(200);
    expect(page.body.data.records.map((r: Venue) => r.id)).toContain(v.id);
    const one = await list(alice, { size: '1' });
    expect(one.body.data).toMatchObject({ page: 1, size: 1, total: page.body.data.total });
    expect(one.body.data.records).toHaveLength(1);
    const adminRead = await read(v.id, admin);
    expect(adminRead.operatorEmail).toEqual(expect.stringContaining('@'));
  });

  it('refuses bad bodies (400 out of rule, 422 wrong types) and writes nothing', async () => {
    const m = await register(alice);
    const theirs = await register(bob);
    const before = await state();
    expectRefused(await venues('POST', '', alice, { revShareBps: 10 }), 400, /name/);
    expectRefused(await venues('POST', '', alice, { name: 'X' }), 400, /revShareBps/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 10001 }), 400, /revShareBps/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: -1 }), 400, /revShareBps/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 12.5 }), 422, /revShareBps/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: '1500' }), 422, /revShareBps/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 1, machineNos: m.machineNo }), 422, /machineNos/);
    for (const d of ['2026-02-30', '2026-1-01', '1969-12-31', 'yesterday'])
      expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 1, deploymentDate: d }), 400, /deploymentDate/);
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 1, owner: 'me' }), 400, /owner/);
    expectRefused(
      await venues('POST', '', alice, { name: 'X', revShareBps: 1, machineNos: [m.machineNo], kioskMachineNo: theirs.machineNo }),
      400,
      /kioskMachineNo .* is not one of machineNos/,
    );
    expectRefused(await venues('POST', '', alice, { name: 'X', revShareBps: 1, kioskMachineNo: m.machineNo }), 400, /kioskMachineNo/);
    const r = await venues('POST', '', alice, { name: 'X', revShareBps: 1, machineNos: [m.machineNo, theirs.machineNo, 'NOPE-0001'] });
    expectRefused(r, 400, new RegExp(`machineNos.*${theirs.machineNo}`));
    expect(r.body.message).toContain('NOPE-0001');
    expect(r.body.message).not.toContain(m.machineNo);
    const readOnly = { 'x-api-key': await mintKey(db(), OPERATOR_IDS.alice, 'machines:read') };
    expectRefused(await venues('POST', '', readOnly, { name: 'X', revShareBps: 1 }), 403);
    expect(await state()).toBe(before);
  });

  it("another operator's venue is 404 to read and to patch; PATCH refusals write nothing", async () => {
    const m = await register(alice);
    const v = await create({ machineNos: [m.machineNo], kioskMachineNo: m.machineNo });
    const before = await state();
    expectRefused(await venues('GET', `/${v.id}`, bob), 404, /Venue not found/);
    expectRefused(await venues('PATCH', `/${v.id}`, bob, { name: 'Mine' }), 404, /Venue not found/);
    expectRefused(await venues('GET', '/ven_missing', alice), 404);
    expect((await list(bob, { size: '100' })).body.data.records.map((x: Venue) => x.id)).not.toContain(v.id);
    expectRefused(await venues('PATCH', `/${v.id}`, alice, {}), 400, /at least one field/);
    expectRefused(await venues('PATCH', `/${v.id}`, alice, { machineNos: [] }), 400, /kioskMachineNo .* is not one of machineNos/);
    expectRefused(await venues('PATCH', `/${v.id}`, alice, { revShareBps: 20000, name: 'ok' }), 400, /revShareBps/);
    expect(await state()).toBe(before);
    const renamed = await venues('PATCH', `/${v.id}`, alice, { name: 'Renamed', revShareBps: 0, address: null });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', revShareBps: 0, address: null, machineNos: [m.machineNo], kioskMachineNo: m.machineNo });
    expect(renamed.body.data.machines).toEqual(v.machines);
    expect(await audit(`venue:${v.id}`)).toEqual(['venues.create', 'venues.update']);
  });

  it('rule 6: PATCH machine venueId is a move (now 200); the venue shows rule move from that moment, even for a machine that sold', async () => {
    const m = await register(alice);
    await sell(m.machineNo, t.clock.now() - 3 * DAY);
    const v = await create({ deploymentDate: '2026-01-01' });
    t.clock.advance(5000);
    const r = await patch(m.machineNo, alice, { venueId: v.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.venueId).toBe(v.id);
    expect((await read(v.id)).machines).toEqual([
      { machineNo: m.machineNo, attachedAt: ts(t.clock.now()), commissionFrom: ts(t.clock.now()), commissionRule: 'move' },
    ]);
    // another operator's venue is refused as before
    const bobs = await create({ name: 'Bob venue' }, bob);
    expectRefused(await patch(m.machineNo, alice, { venueId: bobs.id }), 400, /does not name a venue/);
  });

  it('a venue naming a machine that already sold: from the deployment date, else from the first sale', async () => {
    const [a, b, fresh] = [await register(alice), await register(alice), await register(alice)];
    const firstSale = t.clock.now() - 10 * DAY;
    await sell(a.machineNo, firstSale);
    await sell(a.machineNo, firstSale + DAY);
    await sell(b.machineNo, firstSale);
    const now = t.clock.now();
    const withDate = await create({ machineNos: [a.machineNo, fresh.machineNo], deploymentDate: '2026-11-15' });
    expect(withDate.machines).toEqual(
      [
        { machineNo: a.machineNo, attachedAt: ts(now), commissionFrom: ts(Date.parse('2026-11-15T00:00:00Z')), commissionRule: 'deploymentDate' },
        { machineNo: fresh.machineNo, attachedAt: ts(now), commissionFrom: ts(now), commissionRule: 'move' },
      ].sort((x, y) => x.machineNo.localeCompare(y.machineNo)),
    );
    // the deployment date is read in the machine's time zone
    const zoned = await register(alice);
    expect((await patch(zoned.machineNo, alice, { timeZone: 'America/New_York' })).status).toBe(200);
    await sell(zoned.machineNo, firstSale);
    const noDate = await create({ machineNos: [b.machineNo] });
    expect(noDate.machines).toEqual([{ machineNo: b.machineNo, attachedAt: ts(now), commissionFrom: ts(firstSale), commissionRule: 'firstSale' }]);
    // a PATCH naming it follows the same rule, with the deployment date it sets
    const patched = await venues('PATCH', `/${noDate.id}`, alice, {
      machineNos: [b.machineNo, zoned.machineNo],
      kioskMachineNo: zoned.machineNo,
      deploymentDate: '2026-11-10',
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.machines).toEqual(
      [
        { machineNo: b.machineNo, attachedAt: ts(now), commissionFrom: ts(firstSale), commissionRule: 'firstSale' },
        { machineNo: zoned.machineNo, attachedAt: ts(now), commissionFrom: ts(Date.parse('2026-11-10T05:00:00Z')), commissionRule: 'deploymentDate' },
      ].sort((x, y) => x.machineNo.localeCompare(y.machineNo)),
    );
    // a later deploymentDate does not re-date machines already there (the history is append-only)
    const redated = await venues('PATCH', `/${noDate.id}`, alice, { deploymentDate: '2026-11-12' });
    expect(redated.body.data).toMatchObject({ deploymentDate: '2026-11-12', machines: patched.body.data.machines });
    expect(await audit(`machine:${zoned.machineNo}`)).toEqual(['machines.register', 'machines.update', 'venues.attach']);
  });

  it('re-moving a machine to another venue ends accrual at the old one; detaching ends it; a later naming never overlaps', async () => {
    const m = await register(alice);
    const other = await register(alice);
    await sell(m.machineNo, t.clock.now() - 20 * DAY);
    const first = await create({ machineNos: [m.machineNo, other.machineNo], kioskMachineNo: other.machineNo });
    expect(first.machines.find((x) => x.machineNo === m.machineNo)?.commissionRule).toBe('firstSale');
    t.clock.advance(DAY);
    const movedAt = t.clock.now();
    // the machine sold and is at another venue: naming it elsewhere is a move, not the exception
    const second = await create({ name: 'Second', machineNos: [m.machineNo], deploymentDate: '2026-01-01' });
    expect(second.machines).toEqual([{ machineNo: m.machineNo, attachedAt: ts(movedAt), commissionFrom: ts(movedAt), commissionRule: 'move' }]);
    const old = await read(first.id);
    expect(old.machineNos).toEqual([other.machineNo]);
    expect(old.stints.find((s) => s.machineNo === m.machineNo)).toMatchObject({ commissionRule: 'firstSale', until: ts(movedAt) });

    t.clock.advance(DAY);
    const detachedAt = t.clock.now();
    const d = await venues('PATCH', `/${second.id}`, alice, { machineNos: [] });
    expect(d.status, d.text).toBe(200);
    expect(d.body.data.machines).toEqual([]);
    expect(d.body.data.stints).toEqual([
      { machineNo: m.machineNo, attachedAt: ts(movedAt), commissionFrom: ts(movedAt), commissionRule: 'move', until: ts(detachedAt) },
    ]);
    expect((await api('GET', `/api/v1/machines/${m.machineNo}`, alice)).body.data.venueId).toBeNull();
    expect(await audit(`machine:${m.machineNo}`)).toEqual(['machines.register', 'venues.attach', 'venues.attach', 'venues.detach']);

    // named again with a deployment date before it left: accrues from when it left, not earlier
    t.clock.advance(DAY);
    const third = await create({ name: 'Third', machineNos: [m.machineNo], deploymentDate: '2026-01-01' });
    expect(third.machines).toEqual([
      { machineNo: m.machineNo, attachedAt: ts(t.clock.now()), commissionFrom: ts(detachedAt), commissionRule: 'deploymentDate' },
    ]);

    // PATCH machine venueId null detaches too
    t.clock.advance(1000);
    expect((await patch(m.machineNo, alice, { venueId: null })).status).toBe(200);
    expect((await read(third.id)).stints).toEqual([{ ...third.stints[0], until: ts(t.clock.now()) }]);
    // the history in venue_moves, numbered per machine
    const moves = await db()
      .selectFrom('venue_moves')
      .innerJoin('machines', 'machines.id', 'venue_moves.machine_id')
      .select(['venue_moves.venue_id', 'venue_moves.seq', 'venue_moves.commission_rule'])
      .where('machines.machine_no', '=', m.machineNo)
      .orderBy('venue_moves.seq')
      .execute();
    expect(moves.map((x) => [x.venue_id, Number(x.seq), x.commission_rule])).toEqual([
      [first.id, 1, 'firstSale'],
      [second.id, 2, 'move'],
      [null, 3, null],
      [third.id, 4, 'deploymentDate'],
      [null, 5, null],
    ]);
  });

  it('moves in the same millisecond keep their order', async () => {
    const m = await register(alice);
    const a = await create({ name: 'A', machineNos: [m.machineNo] });
    const b = await create({ name: 'B', machineNos: [m.machineNo] });
    expect((await read(a.id)).machines).toEqual([]);
    expect((await read(b.id)).machineNos).toEqual([m.machineNo]);
    expect((await read(a.id)).stints).toEqual([{ ...a.stints[0], until: ts(t.clock.now()) }]);
  });
});
