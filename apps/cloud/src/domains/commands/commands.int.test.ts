import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { type Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import {
  ALICE_MACHINE,
  ALICE_MACHINE_2,
  TIMESTAMP,
  alice,
  auditActions,
  commandsApi,
  machineId,
  manual,
  orderRow,
  paidOrder,
  resetAisles,
  setAisle,
  stockOf,
  type Command,
} from './commands.test-support.ts';

describe.each(DIALECTS)('remote dispense on %s', (dialect) => {
  let t: TestServer;
  let refSeq = 0;
  const ref = () => `ref-${dialect}-${++refSeq}`;
  const { enqueue, ack, pending, countCommands, ordersOf } = commandsApi(() => t);

  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' } });
  });
  afterAll(async () => t.close());
  beforeEach(() => resetAisles(t));

  it('enqueues a pending command in the documented shape, audited', async () => {
    const r = await enqueue({ aisleNo: 3, reason: 'goodwill drop' });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(200);
    const c = r.body.data;
    expect(c).toMatchObject({
      machineNo: ALICE_MACHINE,
      channel: 'api_drop',
      aisleNo: 3,
      reason: 'goodwill drop',
      externalRef: null,
      status: 'pending',
      outcome: null,
      detail: null,
      orderNumber: null,
      ackedAt: null,
      expiredAt: null,
      duplicate: false,
    });
    expect(c.commandId).toMatch(/^cmd_/);
    expect(c.createdAt).toMatch(TIMESTAMP);
    expect(await auditActions(t, `command:${c.commandId}`)).toEqual(['command.enqueue']);
  });

  it('the pending poll lists pending commands oldest first and drops acknowledged ones', async () => {
    const ids: string[] = [];
    for (const aisleNo of [4, 2, 6]) {
      ids.push((await enqueue({ aisleNo, reason: 'poll order' }, alice, ALICE_MACHINE_2)).body.data.commandId);
      manual(t).advance(1000);
    }
    const before = await pending(alice, ALICE_MACHINE_2);
    expect(before.status).toBe(200);
    expect(before.body.data.map((c) => c.commandId)).toEqual(ids);
    expect((await ack(ids[1]!, { success: true, outcome: 'success', detail: '' }, alice, ALICE_MACHINE_2)).status).toBe(200);
    const after = await pending(alice, ALICE_MACHINE_2);
    expect(after.body.data.map((c) => c.commandId)).toEqual([ids[0], ids[2]]);
    // drain so later tests see an empty queue on this machine
    for (const id of [ids[0]!, ids[2]!]) await ack(id, { success: false, outcome: 'motor_jam', detail: '' }, alice, ALICE_MACHINE_2);
    expect((await pending(alice, ALICE_MACHINE_2)).body.data).toEqual([]);
  });

  it('reads one command; an unknown id, or another machine’s command, is 404 Command not found', async () => {
    const c = (await enqueue({ aisleNo: 1, reason: 'read me' })).body.data;
    const r = await call<Body<Command>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}`, { headers: alice });
    expect(r.status).toBe(200);
    const { duplicate: _duplicate, ...asEnqueued } = c;
    expect(r.body.data).toEqual(asEnqueued);
    const missing = await call(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/cmd_nope`, { headers: alice });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, message: 'Command not found', data: null });
    const elsewhere = await call(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE_2}/commands/${c.commandId}`, { headers: alice });
    expect(elsewhere.status).toBe(404);
  });

  it('finds a command by externalRef, filters by status, pages newest first', async () => {
    const myRef = ref();
    const c = (await enqueue({ aisleNo: 2, reason: 'find me', externalRef: myRef })).body.data;
    const found = await call<Body<{ total: number; records: Command[] }>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands`, {
      headers: alice,
      query: { externalRef: myRef },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.total).toBe(1);
    expect(found.body.data.records[0]!.commandId).toBe(c.commandId);
    const none = await call<Body<{ total: number }>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands`, {
      headers: alice,
      query: { externalRef: 'never-used' },
    });
    expect(none.body.data.total).toBe(0);

    manual(t).advance(1000);
    const newer = (await enqueue({ aisleNo: 2, reason: 'newer' })).body.data;
    await ack(newer.commandId, { success: false, outcome: 'lane_empty', detail: 'sensor' });
    const page = await call<Body<{ page: number; size: number; total: number; records: Command[] }>>(
      t.url,
      'GET',
      `/api/v1/machines/${ALICE_MACHINE}/commands`,
      {
        headers: alice,
        query: { size: '1' },
      },
    );
    expect(page.body.data.size).toBe(1);
    expect(page.body.data.records[0]!.commandId).toBe(newer.commandId);
    const failed = await call<Body<{ records: Command[] }>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands`, {
      headers: alice,
      query: { status: 'failed' },
    });
    expect(failed.body.data.records.every((x) => x.status === 'failed')).toBe(true);
    expect(failed.body.data.records.map((x) => x.commandId)).toContain(newer.commandId);
    expect((await call(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands`, { headers: alice, query: { status: 'bogus' } })).status).toBe(400);
  });

  it('a successful ack decrements the aisle and writes a shipped api_drop order in the walk-up shape, in one audited write', async () => {
    const c = (await enqueue({ aisleNo: 3, reason: 'promo drop' })).body.data;
    manual(t).advance(2000);
    const r = await ack(c.commandId, { success: true, outcome: 'success', detail: 'drop sensor confirmed' });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ status: 'acknowledged', outcome: 'success', detail: 'drop sensor confirmed', alreadyAcknowledged: false });
    expect(d.ackedAt).toMatch(TIMESTAMP);
    expect(d.orderNumber).toMatch(/^RD[0-9A-Z]+$/);
    expect(d.order).toEqual({ orderNumber: d.orderNumber, payStatus: 'shipped', paidPrice: 1.75, chargedCents: 175, channel: 'api_drop', payMethod: 'remote' });
    expect(await stockOf(t, ALICE_MACHINE, 3)).toBe(4);
    const order = await orderRow(t, d.orderNumber!);
    expect(order).toMatchObject({
      machine_id: await machineId(t, ALICE_MACHINE),
      operator_id: OPERATOR_IDS.alice,
      aisle_no: 3,
      quantity: 1,
      pay_status: 'shipped',
      paid_cents: 175,
      charged_cents: 175,
      channel: 'api_drop',
      pay_method: 'remote',
      command_id: c.commandId,
      vended: 1,
      created_at: t.clock.now(),
    });
    expect(await auditActions(t, `command:${c.commandId}`)).toEqual(['command.enqueue', 'command.ack']);
  });

  it("stamps the machine's tax rate on the drop's order, so a later rate never reprices it", async () => {
    const db = t.ctx.database.db;
    await db.updateTable('machines').set({ sales_tax_rate: 8.875 }).where('machine_no', '=', ALICE_MACHINE).execute();
    const c = (await enqueue({ aisleNo: 3, reason: 'taxed drop' })).body.data;
    const d = (await ack(c.commandId, { success: true, outcome: 'success', detail: 'ok' })).body.data;
    await db.updateTable('machines').set({ sales_tax_rate: 5 }).where('machine_no', '=', ALICE_MACHINE).execute();
    expect((await orderRow(t, d.orderNumber!))?.tax_rate).toBe(8.875);
    await db.updateTable('machines').set({ sales_tax_rate: null }).where('machine_no', '=', ALICE_MACHINE).execute();
  });

  it('a reason starting with reward (any case) makes the order free; other reasons pay the aisle price', async () => {
    const paid: Record<string, number> = {};
    for (const reason of ['reward: loyalty', 'REWARD promo', 'Rewarded game win', 'not a reward']) {
      const c = (await enqueue({ aisleNo: 5, reason })).body.data;
      const d = (await ack(c.commandId, { success: true, outcome: 'success', detail: '' })).body.data;
      paid[reason] = (await orderRow(t, d.orderNumber!)).paid_cents;
      expect(d.order!.chargedCents).toBe(paid[reason]);
    }
    expect(paid).toEqual({ 'reward: loyalty': 0, 'REWARD promo': 0, 'Rewarded game win': 0, 'not a reward': 225 });
  });

  it('a failed ack records outcome and detail, changes no stock and writes no order', async () => {
    const c = (await enqueue({ aisleNo: 6, reason: 'will jam' })).body.data;
    const r = await ack(c.commandId, { success: false, outcome: 'motor_jam', detail: 'lane 6 motor stalled' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      status: 'failed',
      outcome: 'motor_jam',
      detail: 'lane 6 motor stalled',
      orderNumber: null,
      order: null,
      alreadyAcknowledged: false,
    });
    expect(await stockOf(t, ALICE_MACHINE, 6)).toBe(5);
    expect(await ordersOf(c.commandId)).toEqual([]);
    expect(await auditActions(t, `command:${c.commandId}`)).toEqual(['command.enqueue', 'command.fail']);
  });

  it('a second ack changes nothing and answers the command as recorded (alreadyAcknowledged)', async () => {
    const c = (await enqueue({ aisleNo: 7, reason: 'twice' })).body.data;
    const first = await ack(c.commandId, { success: true, outcome: 'success', detail: 'first' });
    manual(t).advance(5000);
    const second = await ack(c.commandId, { success: false, outcome: 'motor_jam', detail: 'second' });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ status: 'acknowledged', outcome: 'success', detail: 'first', alreadyAcknowledged: true });
    expect(second.body.data.ackedAt).toBe(first.body.data.ackedAt);
    expect(second.body.data.order?.orderNumber).toBe(first.body.data.orderNumber);
    expect(await stockOf(t, ALICE_MACHINE, 7)).toBe(4);
    expect(await ordersOf(c.commandId)).toHaveLength(1);
    expect(await auditActions(t, `command:${c.commandId}`)).toEqual(['command.enqueue', 'command.ack']);
  });

  it('ten racing acks of one command decrement once and write one order', async () => {
    const c = (await enqueue({ aisleNo: 8, reason: 'race' })).body.data;
    const rs = await Promise.all(Array.from({ length: 10 }, () => ack(c.commandId, { success: true, outcome: 'success', detail: '' })));
    expect(rs.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(rs.filter((r) => r.body.data.alreadyAcknowledged === false)).toHaveLength(1);
    expect(await stockOf(t, ALICE_MACHINE, 8)).toBe(4);
    expect(await ordersOf(c.commandId)).toHaveLength(1);
  });

  it('the board is the truth: an ack of a drop from an aisle already at 0 records the order and keeps stock at 0', async () => {
    const c = (await enqueue({ aisleNo: 9, reason: 'last one' })).body.data;
    await setAisle(t, ALICE_MACHINE, 9, { stock: 0 });
    const r = await ack(c.commandId, { success: true, outcome: 'success', detail: '' });
    expect(r.body.data.status).toBe('acknowledged');
    expect(await stockOf(t, ALICE_MACHINE, 9)).toBe(0);
    expect(await ordersOf(c.commandId)).toHaveLength(1);
  });

  it('refuses a faulted aisle (409), an empty one (409) and one the machine lacks (400), creating nothing', async () => {
    await setAisle(t, ALICE_MACHINE, 3, { faulted: true });
    await setAisle(t, ALICE_MACHINE, 4, { stock: 0 });
    const before = await countCommands();
    const faulted = await enqueue({ aisleNo: 3, reason: 'x' });
    expect(faulted.status).toBe(409);
    expect(faulted.body).toEqual({ code: 409, message: 'Aisle 3 is faulted', data: null });
    const empty = await enqueue({ aisleNo: 4, reason: 'x' });
    expect(empty.status).toBe(409);
    expect(empty.body).toEqual({ code: 409, message: 'Aisle 4 is empty', data: null });
    const missing = await enqueue({ aisleNo: 11, reason: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(`Bad request — invalid or missing parameters: body.aisleNo: Aisle 11 does not exist on machine ${ALICE_MACHINE}`);
    expect(await countCommands()).toBe(before);
  });

  it('the same externalRef twice is one drop: the second answers the existing command with duplicate: true', async () => {
    const myRef = ref();
    const first = await enqueue({ aisleNo: 2, reason: 'idempotent', externalRef: myRef });
    const before = await countCommands();
    const second = await enqueue({ aisleNo: 2, reason: 'idempotent', externalRef: myRef });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ commandId: first.body.data.commandId, duplicate: true, externalRef: myRef });
    expect(await countCommands()).toBe(before);
    // reusing the reference for a different drop is refused
    const other = await enqueue({ aisleNo: 5, reason: 'idempotent', externalRef: myRef });
    expect(other.status).toBe(409);
    expect(other.body.message).toContain(first.body.data.commandId);
    // the reference is per machine
    const elsewhere = await enqueue({ aisleNo: 2, reason: 'idempotent', externalRef: myRef }, alice, ALICE_MACHINE_2);
    expect(elsewhere.body.data.duplicate).toBe(false);
    expect(elsewhere.body.data.commandId).not.toBe(first.body.data.commandId);
    // answered even once the drop is done
    await ack(first.body.data.commandId, { success: true, outcome: 'success', detail: '' });
    const late = await enqueue({ aisleNo: 2, reason: 'idempotent', externalRef: myRef });
    expect(late.body.data).toMatchObject({ commandId: first.body.data.commandId, duplicate: true, status: 'acknowledged' });
    await ack(elsewhere.body.data.commandId, { success: false, outcome: 'no_motor', detail: '' }, alice, ALICE_MACHINE_2);
  });

  it('twenty concurrent requests with one externalRef make exactly one command', async () => {
    const myRef = ref();
    const rs = await Promise.all(Array.from({ length: 20 }, () => enqueue({ aisleNo: 1, reason: 'burst', externalRef: myRef })));
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(rs.map((r) => r.body.data.commandId)).size).toBe(1);
    expect(rs.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    const rows = await t.ctx.database.db.selectFrom('dispense_commands').select('id').where('external_ref', '=', myRef).execute();
    expect(rows).toHaveLength(1);
    expect(await auditActions(t, `command:${rows[0]!.id}`)).toEqual(['command.enqueue']);
  });

  it('the store itself refuses a second command with the same (machine, externalRef)', async () => {
    const myRef = ref();
    const c = (await enqueue({ aisleNo: 1, reason: 'index', externalRef: myRef })).body.data;
    const row = await t.ctx.database.db.selectFrom('dispense_commands').selectAll().where('id', '=', c.commandId).executeTakeFirstOrThrow();
    await expect(
      t.ctx.database.db
        .insertInto('dispense_commands')
        .values({ ...row, id: `${row.id}x` })
        .execute(),
    ).rejects.toThrow();
    // commands without a reference are never duplicates of each other
    const a = (await enqueue({ aisleNo: 1, reason: 'no ref' })).body.data;
    const b = (await enqueue({ aisleNo: 1, reason: 'no ref' })).body.data;
    expect(a.commandId).not.toBe(b.commandId);
  });

  it('an ack after the dispense-decision loop expired the command is still recorded', async () => {
    const c = (await enqueue({ aisleNo: 10, reason: 'slow board' })).body.data;
    manual(t).advance(121_000);
    await t.services.jobs.dispenseDecision.tick();
    const expired = await call<Body<Command>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}`, { headers: alice });
    expect(expired.body.data).toMatchObject({ status: 'expired', outcome: 'no_outcome', detail: 'no outcome within 120s' });
    const r = await ack(c.commandId, { success: true, outcome: 'success', detail: 'late' });
    expect(r.body.data).toMatchObject({ status: 'acknowledged', outcome: 'success', alreadyAcknowledged: false });
    expect(r.body.data.expiredAt).toBe(expired.body.data.expiredAt);
    expect(await stockOf(t, ALICE_MACHINE, 10)).toBe(4);
    expect(await ordersOf(c.commandId)).toHaveLength(1);
  });

  it('an order paid before the drop follows its command: shipped on success, refunded on failure', async () => {
    const ok = (await enqueue({ aisleNo: 2, reason: 'paid drop' })).body.data;
    const okOrder = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: t.clock.now(), commandId: ok.commandId, aisleNo: 2 });
    const r = await ack(ok.commandId, { success: true, outcome: 'success', detail: '' });
    expect(r.body.data.orderNumber).toBe(okOrder);
    expect(await orderRow(t, okOrder)).toMatchObject({ pay_status: 'shipped', vended: 1 });
    expect(await ordersOf(ok.commandId)).toHaveLength(1);

    const bad = (await enqueue({ aisleNo: 2, reason: 'paid drop' })).body.data;
    const badOrder = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: t.clock.now(), commandId: bad.commandId, aisleNo: 2 });
    await ack(bad.commandId, { success: false, outcome: 'drop_not_detected', detail: '' });
    expect(await orderRow(t, badOrder)).toMatchObject({ pay_status: 'refunded', vended: 0 });
  });

  it('a path that is not valid percent-encoding is 400, never a 5xx', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/machines/%E0/commands/pending'],
      ['GET', `/api/v1/machines/${ALICE_MACHINE}/commands/%E0%A4%A`],
      ['POST', `/api/v1/machines/${ALICE_MACHINE}/commands/%zz/ack`],
    ] as const) {
      const r = await call(t.url, method, path, { headers: alice, ...(method === 'POST' ? { json: { success: true, outcome: 'success' } } : {}) });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 400, data: null });
    }
  });

  it('a NUL in a path segment names nothing: 404, never a 5xx from the store', async () => {
    const c = (await enqueue({ aisleNo: 1, reason: 'nul' })).body.data;
    for (const [method, path, message] of [
      ['GET', '/api/v1/machines/%00/commands/pending', 'Machine not found'],
      ['GET', `/api/v1/machines/SBX-ALICE-%00001/commands`, 'Machine not found'],
      ['GET', `/api/v1/machines/${ALICE_MACHINE}/commands/%00`, 'Command not found'],
      ['GET', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}%00`, 'Command not found'],
      ['POST', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}%00/ack`, 'Command not found'],
      ['POST', '/api/v1/machines/%00/commands/dispense', 'Machine not found'],
    ] as const) {
      const json = method === 'POST' ? (path.endsWith('/ack') ? { success: true, outcome: 'success' } : { aisleNo: 1, reason: 'x' }) : undefined;
      const r = await call(t.url, method, path, { headers: alice, ...(json ? { json } : {}) });
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ code: 404, message, data: null });
    }
    expect((await call<Body<Command>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}`, { headers: alice })).body.data.status).toBe(
      'pending',
    );
  });

  it('acking a command that does not exist is 404 and changes nothing', async () => {
    const r = await ack('cmd_missing', { success: true, outcome: 'success', detail: '' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 404, message: 'Command not found', data: null });
  });

  it('validates ack bodies: wrong types 422, missing or out-of-rule values 400, nothing recorded', async () => {
    const c = (await enqueue({ aisleNo: 1, reason: 'validate' })).body.data;
    expect((await ack(c.commandId, { success: 'yes', outcome: 'success', detail: '' })).status).toBe(422);
    expect((await ack(c.commandId, { outcome: 'success', detail: '' })).status).toBe(400);
    expect((await ack(c.commandId, { success: true, outcome: '', detail: '' })).status).toBe(400);
    expect((await ack(c.commandId, { success: true, outcome: 'a'.repeat(65), detail: '' })).status).toBe(400);
    expect((await ack(c.commandId, { success: true, outcome: 'ok', detail: 'x\u0000y' })).status).toBe(400);
    const still = await call<Body<Command>>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/${c.commandId}`, { headers: alice });
    expect(still.body.data.status).toBe('pending');
    // detail is optional
    expect((await ack(c.commandId, { success: false, outcome: 'board_busy' })).body.data.detail).toBe('');
  });

  it('validates dispense bodies: wrong types 422, missing or out-of-rule values 400', async () => {
    expect((await enqueue({ aisleNo: '3', reason: 'x' })).status).toBe(422);
    expect((await enqueue({ aisleNo: 1.5, reason: 'x' })).status).toBeGreaterThanOrEqual(400);
    expect((await enqueue({ aisleNo: 0, reason: 'x' })).status).toBe(400);
    expect((await enqueue({ aisleNo: 3 })).status).toBe(400);
    expect((await enqueue({ aisleNo: 3, reason: '   ' })).status).toBe(400);
    expect((await enqueue({ aisleNo: 3, reason: 'x', externalRef: 'a\nb' })).status).toBe(400);
    expect((await enqueue({ aisleNo: 3, reason: 'x', externalRef: 'r'.repeat(129) })).status).toBe(400);
  });
});
