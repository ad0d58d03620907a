import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS, TEST_DATABASE_URL, call, freshDatabase, startTestServer, type TestServer } from './testing/harness.ts';
import { expectStatus } from './testing/answers.ts';
import type { Database } from './db/database.ts';
import { SANDBOX_CREDENTIALS } from './db/seed.ts';
import { ALICE_MACHINE, auditActions, manual, orderRow, paidOrder, setAisle } from './domains/commands/commands.test-support.ts';
import { publishAll, setAgentVersion, setRollout } from './domains/releases/releases.test-support.ts';
import { INTERVALS_MS } from './background-jobs.ts';
import type { LoopStatus } from './jobs/loop.ts';

const REDIS_URL = process.env['REDIS_URL'];
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const MIN = 60_000;

const status = async (t: TestServer, name: string) => {
  const r = await call<LoopStatus>(t.url, 'GET', `/sandbox/${name}`);
  expect(r.status).toBe(200);
  return r.body;
};

async function enqueue(t: TestServer, aisleNo: number): Promise<string> {
  await setAisle(t, ALICE_MACHINE, aisleNo, { stock: 5, faulted: false });
  const r = await call<{ data: { commandId: string } }>(t.url, 'POST', `/api/v1/machines/${ALICE_MACHINE}/commands/dispense`, {
    headers: alice,
    json: { aisleNo, reason: 'loop test' },
  });
  expect(r.status).toBe(200);
  return r.body.data.commandId;
}

const commandStatus = async (t: TestServer, id: string) =>
  (await t.ctx.database.db.selectFrom('dispense_commands').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as {
    status: string;
    outcome: string | null;
    detail: string | null;
    expired_at: number | null;
  };

describe.each(DIALECTS)('background loops on one %s replica', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { POD_NAME: 'pod-solo' } });
  });
  afterAll(async () => t.close());

  it('status endpoints are plain JSON liveness bodies with truthful counters', async () => {
    for (const name of ['refund-sweep', 'dispense-decision', 'rollout-sweep']) {
      const s = await status(t, name);
      expect(s).not.toHaveProperty('code');
      expect(s).toMatchObject({ name, pod: 'pod-solo', enabled: true, running: false, ticks: 0, sweeps: 0, followerSkips: 0, resolved: 0, lastTickAt: null });
      expect(s.lease).toBe(dialect === 'postgres' ? 'postgres' : 'in-process');
    }
    expect((await status(t, 'dispense-decision')).timeoutSeconds).toBe(120);
    expect((await status(t, 'refund-sweep')).graceSeconds).toBe(900);
  });

  it('refund sweep: a paid order never vended past the grace period becomes refund_owed, once, audited', async () => {
    const now = t.clock.now();
    const old = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 16 * MIN, dispenseId: `d-${randomBytes(4).toString('hex')}` });
    const young = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 5 * MIN, dispenseId: `d-${randomBytes(4).toString('hex')}` });
    const before = await status(t, 'refund-sweep');
    const shippedBefore = await t.ctx.database.db.selectFrom('orders').select('order_number').where('pay_status', '=', 'shipped').execute();

    expect(await t.services.jobs.refundSweep.tick()).toEqual({ leader: true, resolved: 1 });
    expect((await orderRow(t, old)).pay_status).toBe('refund_owed');
    expect((await orderRow(t, young)).pay_status).toBe('paid');
    expect(await auditActions(t, `order:${old}`)).toEqual(['order.refund_owed']);
    // seed orders (shipped, refunded) are never touched
    const shippedAfter = await t.ctx.database.db.selectFrom('orders').select('order_number').where('pay_status', '=', 'shipped').execute();
    expect(shippedAfter.length).toBe(shippedBefore.length);

    expect(await t.services.jobs.refundSweep.tick()).toEqual({ leader: true, resolved: 0 });
    manual(t).advance(11 * MIN);
    expect(await t.services.jobs.refundSweep.tick()).toEqual({ leader: true, resolved: 1 });
    expect((await orderRow(t, young)).pay_status).toBe('refund_owed');

    const s = await status(t, 'refund-sweep');
    expect(s).toMatchObject({ leader: true, ticks: before.ticks + 3, sweeps: before.sweeps + 3, resolved: before.resolved + 2, followerSkips: 0, errors: 0 });
    expect(s.lastTickAt).toBe(new Date(t.clock.now()).toISOString().replace('Z', '+0000'));
  });

  it('dispense decision: a pending command with no outcome past timeoutSeconds expires and leaves the poll; a younger one stays', async () => {
    const old = await enqueue(t, 2);
    manual(t).advance(100_000);
    const young = await enqueue(t, 3);
    manual(t).advance(20_001);
    const r = await t.services.jobs.dispenseDecision.tick();
    expect(r.leader).toBe(true);
    expect(r.resolved).toBeGreaterThanOrEqual(1);
    expect(await commandStatus(t, old)).toMatchObject({
      status: 'expired',
      outcome: 'no_outcome',
      detail: 'no outcome within 120s',
      expired_at: t.clock.now(),
    });
    expect((await commandStatus(t, young)).status).toBe('pending');
    expect(await auditActions(t, `command:${old}`)).toEqual(['command.enqueue', 'command.expire']);
    const polled = await call<{ data: { commandId: string }[] }>(t.url, 'GET', `/api/v1/machines/${ALICE_MACHINE}/commands/pending`, { headers: alice });
    expect(polled.body.data.map((c) => c.commandId)).toContain(young);
    expect(polled.body.data.map((c) => c.commandId)).not.toContain(old);
    manual(t).advance(121_000);
    await t.services.jobs.dispenseDecision.tick();
    expect((await commandStatus(t, young)).status).toBe('expired');
  });

  it('dispense decision: the money of a vend with no outcome is returned; a reported or command-driven order is left to its own rule', async () => {
    const now = t.clock.now();
    const awaiting = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 121_000 });
    const fresh = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 60_000 });
    const reported = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 121_000, dispenseId: `d-${randomBytes(4).toString('hex')}` });
    const cmd = await enqueue(t, 4);
    const driven = await paidOrder(t, { machineNo: ALICE_MACHINE, createdAt: now - 121_000, commandId: cmd });

    await t.services.jobs.dispenseDecision.tick();
    expect(await orderRow(t, awaiting)).toMatchObject({ pay_status: 'refunded', vended: 0 });
    expect(await auditActions(t, `order:${awaiting}`)).toEqual(['order.refund']);
    expect((await orderRow(t, fresh)).pay_status).toBe('paid');
    expect((await orderRow(t, reported)).pay_status).toBe('paid');
    // the command is young: its paid order waits for the command's outcome
    expect((await orderRow(t, driven)).pay_status).toBe('paid');

    manual(t).advance(121_000);
    await t.services.jobs.dispenseDecision.tick();
    expect((await commandStatus(t, cmd)).status).toBe('expired');
    expect((await orderRow(t, driven)).pay_status).toBe('refunded');
    // the board reported a failed drop but the money stayed captured: the refund sweep owes it back
    manual(t).advance(15 * MIN);
    await t.services.jobs.refundSweep.tick();
    expect((await orderRow(t, reported)).pay_status).toBe('refund_owed');
    expect((await orderRow(t, awaiting)).pay_status).toBe('refunded');
  });

  it('rollout sweep: its work is installed; with no rollout a sweep writes nothing and reads no fleet; a failing sweep is counted and the next one recovers', async () => {
    const loop = t.services.jobs.rolloutSweep;
    const real = loop.work;
    expect(real).not.toBeNull();
    await t.ctx.database.db.deleteFrom('agent_rollout').execute();
    const fleetReads = vi.spyOn(t.services.store.repos.releases, 'fleetRows');
    expect(await loop.tick()).toEqual({ leader: true, resolved: 0 });
    expect(await loop.tick()).toEqual({ leader: true, resolved: 0 });
    expect(fleetReads).not.toHaveBeenCalled();
    fleetReads.mockRestore();
    expect(await status(t, 'rollout-sweep')).toMatchObject({ ticks: 2, sweeps: 2, resolved: 0, leader: true, workInstalled: true, errors: 0 });
    expect(await t.ctx.database.db.selectFrom('rollout_progress').selectAll().execute()).toEqual([]);
    loop.work = async () => {
      throw new Error('rollout store down');
    };
    await loop.tick();
    expect(await status(t, 'rollout-sweep')).toMatchObject({ ticks: 3, sweeps: 2, errors: 1, lastError: 'rollout store down' });
    loop.work = real;
    await loop.tick();
    expect(await status(t, 'rollout-sweep')).toMatchObject({ ticks: 4, sweeps: 3, errors: 1 });
  });
});

describe('loop scheduling on the injected clock', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('started loops tick every interval on the clock and stop cleanly', async () => {
    t = await startTestServer('sqlite', { env: { DISPENSE_TIMEOUT_SECONDS: '30' } });
    const cmd = await enqueue(t, 5);
    t.services.jobs.start();
    expect((await status(t, 'dispense-decision')).running).toBe(true);
    manual(t).advance(INTERVALS_MS.dispenseDecision);
    await t.services.jobs.dispenseDecision.whenIdle();
    expect((await status(t, 'dispense-decision')).ticks).toBe(1);
    expect((await status(t, 'refund-sweep')).ticks).toBe(0);
    // the configured timeout rules: after 30 s (and the next tick) the command has expired
    for (let i = 0; i < 6; i++) {
      manual(t).advance(INTERVALS_MS.dispenseDecision);
      await t.services.jobs.dispenseDecision.whenIdle();
    }
    expect(await status(t, 'dispense-decision')).toMatchObject({ ticks: 7, timeoutSeconds: 30 });
    expect(await commandStatus(t, cmd)).toMatchObject({ status: 'expired', detail: 'no outcome within 30s' });
    manual(t).advance(INTERVALS_MS.refundSweep);
    await t.services.jobs.refundSweep.whenIdle();
    expect((await status(t, 'refund-sweep')).ticks).toBe(1);

    await t.services.jobs.stop();
    const stopped = await status(t, 'dispense-decision');
    expect(stopped.running).toBe(false);
    manual(t).advance(10 * INTERVALS_MS.refundSweep);
    await t.services.jobs.dispenseDecision.whenIdle();
    expect((await status(t, 'dispense-decision')).ticks).toBe(stopped.ticks);
  });

  it('JOBS_ENABLED=false: start schedules nothing and the status says so', async () => {
    t = await startTestServer('sqlite', { env: { JOBS_ENABLED: 'false' } });
    t.services.jobs.start();
    manual(t).advance(10 * MIN);
    for (const name of ['refund-sweep', 'dispense-decision', 'rollout-sweep']) {
      expect(await status(t, name)).toMatchObject({ enabled: false, running: false, ticks: 0 });
    }
  });

  it('JOBS_INTERVAL_SECONDS (failover drills): every loop ticks at that interval instead of its own', async () => {
    t = await startTestServer('sqlite', { env: { JOBS_INTERVAL_SECONDS: '0.5' } });
    t.services.jobs.start();
    manual(t).advance(500);
    await Promise.all(t.services.jobs.all().map((l) => l.whenIdle()));
    for (const name of ['refund-sweep', 'dispense-decision', 'rollout-sweep']) {
      expect(await status(t, name)).toMatchObject({ intervalSeconds: 0.5, ticks: 1, sweeps: 1 });
    }
  });
});

/**
 * Two replicas on one store. The harness's close() closes the database it was given, so each replica
 * gets a borrowed handle whose close does nothing, and the test closes the shared store last.
 */
async function twoReplicas(database: Database, env: Record<string, string>) {
  const borrowed: Database = { ...database, close: async () => {} };
  const a = await startTestServer(database.dialect, { database: borrowed, env: { ...env, POD_NAME: 'pod-a' } });
  const b = await startTestServer(database.dialect, { database: borrowed, env: { ...env, POD_NAME: 'pod-b' }, seed: false });
  return { a, b };
}

const sharedStores: { lease: 'postgres' | 'redis'; dialect: 'sqlite' | 'postgres'; env: () => Record<string, string> }[] = [];
if (TEST_DATABASE_URL) sharedStores.push({ lease: 'postgres', dialect: 'postgres', env: () => ({}) });
if (REDIS_URL) {
  for (const dialect of DIALECTS) {
    sharedStores.push({ lease: 'redis', dialect, env: () => ({ REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` }) });
  }
}

describe.skipIf(sharedStores.length === 0).each(sharedStores)('two replicas, $lease lease, on one $dialect store', ({ lease, dialect, env }) => {
  let database: Database;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    ({ a, b } = await twoReplicas(database, env()));
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.close();
  });

  it('exactly one replica sweeps; the other counts follower skips; the order is refunded once', async () => {
    const order = await paidOrder(a, { machineNo: ALICE_MACHINE, createdAt: a.clock.now() - 20 * MIN, dispenseId: `d-${randomBytes(4).toString('hex')}` });
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push(...(await Promise.all([a.services.jobs.refundSweep.tick(), b.services.jobs.refundSweep.tick()])));
      manual(a).advance(1000);
      manual(b).advance(1000);
    }
    expect(results.reduce((n, r) => n + r.resolved, 0)).toBe(1);
    const sa = await status(a, 'refund-sweep');
    const sb = await status(b, 'refund-sweep');
    expect([sa.lease, sb.lease]).toEqual([lease, lease]);
    expect([sa.pod, sb.pod]).toEqual(['pod-a', 'pod-b']);
    const [leader, follower] = sa.leader ? [sa, sb] : [sb, sa];
    expect(leader).toMatchObject({ leader: true, ticks: 3, sweeps: 3, followerSkips: 0, resolved: 1 });
    expect(follower).toMatchObject({ leader: false, ticks: 3, sweeps: 0, followerSkips: 3, resolved: 0 });
    expect((await orderRow(a, order)).pay_status).toBe('refund_owed');
    expect(await auditActions(a, `order:${order}`)).toEqual(['order.refund_owed']);
  });

  it('the rollout sweep: each snapshot is written once, by the leader, however many replicas tick', async () => {
    await publishAll(a, '7.0.0');
    await expectStatus(setRollout(a, { targetVersion: '7.0.0', canary: [ALICE_MACHINE] }), 200);
    const tickBoth = async () => {
      const rs = await Promise.all([a.services.jobs.rolloutSweep.tick(), b.services.jobs.rolloutSweep.tick()]);
      manual(a).advance(1000);
      manual(b).advance(1000);
      return rs.reduce((n, r) => n + r.resolved, 0);
    };
    expect(await tickBoth()).toBe(1);
    expect(await tickBoth()).toBe(0);
    await setAgentVersion(a, ALICE_MACHINE, '7.0.0');
    expect(await tickBoth()).toBe(1);
    expect(await tickBoth()).toBe(0);
    const rows = await a.ctx.database.db.selectFrom('rollout_progress').select(['on_target', 'eligible']).orderBy('taken_at').execute();
    expect(rows).toEqual([
      { eligible: 1, on_target: 0 },
      { eligible: 1, on_target: 1 },
    ]);
    const sa = await status(a, 'rollout-sweep');
    const sb = await status(b, 'rollout-sweep');
    const [leader, follower] = sa.leader ? [sa, sb] : [sb, sa];
    expect(leader).toMatchObject({ sweeps: 4, resolved: 2, followerSkips: 0 });
    expect(follower).toMatchObject({ sweeps: 0, resolved: 0, followerSkips: 4 });
  });

  it('the lease covers every loop: the same replica leads the dispense decision', async () => {
    const leaderIsA = (await status(a, 'refund-sweep')).leader;
    await Promise.all([a.services.jobs.dispenseDecision.tick(), b.services.jobs.dispenseDecision.tick()]);
    expect((await status(a, 'dispense-decision')).leader).toBe(leaderIsA);
    expect((await status(b, 'dispense-decision')).leader).toBe(!leaderIsA);
  });

  it('when the leader stops, it gives the lease up and the other replica takes over', async () => {
    const [leader, follower] = (await status(a, 'refund-sweep')).leader ? [a, b] : [b, a];
    await leader.services.jobs.stop();
    const r = await follower.services.jobs.refundSweep.tick();
    expect(r.leader).toBe(true);
    expect((await leader.services.jobs.refundSweep.tick()).leader).toBe(false);
    expect((await status(leader, 'refund-sweep')).followerSkips).toBeGreaterThanOrEqual(1);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('postgres lease expiry', () => {
  it("a leader that vanished without releasing loses the lease once it lapses on the database's clock, whatever the replicas' clocks say", async () => {
    const database = await freshDatabase('postgres');
    const { a, b } = await twoReplicas(database, { JOBS_LEASE_TTL_SECONDS: '2' });
    try {
      expect((await a.services.jobs.rolloutSweep.tick()).leader).toBe(true);
      expect((await b.services.jobs.rolloutSweep.tick()).leader).toBe(false);
      // b's clock steps hours ahead (NTP after a suspend): the lease still lives on the database's clock, b follows
      manual(b).advance(3 * 3_600_000);
      expect((await b.services.jobs.rolloutSweep.tick()).leader).toBe(false);
      // a's clock steps hours back: it still renews its own lease, for the TTL from the database's now
      manual(a).set(manual(a).now() - 3 * 3_600_000);
      expect((await a.services.jobs.rolloutSweep.tick()).leader).toBe(true);
      expect((await b.services.jobs.rolloutSweep.tick()).leader).toBe(false);
      // a "crashes": it never ticks or releases again. Once the TTL has passed on the database's clock, b leads.
      await new Promise((r) => setTimeout(r, 2_100));
      expect((await b.services.jobs.rolloutSweep.tick()).leader).toBe(true);
      // and a, coming back, is now the follower
      expect((await a.services.jobs.rolloutSweep.tick()).leader).toBe(false);
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  });
});
