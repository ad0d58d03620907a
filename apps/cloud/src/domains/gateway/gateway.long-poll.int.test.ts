import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { type PendingData } from '@vend/protocol';
import type { Database } from '../../db/database.ts';
import { newId } from '../../crypto/ids.ts';
import { CommandsRepo } from '../commands/commands.repo.ts';
import { DIALECTS, call, startReplicas, startTestServer, type Replicas, type TestServer } from '../../testing/harness.ts';
import { checkedFetch } from '../../testing/contract.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { ALICE, enrolled, keyHeader, machineRow } from './gateway.test-support.ts';

/**
 * `GET /cabinet/pending?wait=N` (docs/decisions/gateway-and-credentials.md, long poll). Real HTTP; the
 * holds run on the server's ManualClock, so the test moves time and nothing sleeps longer than a few
 * event-loop turns.
 */

/** Resolves once `cond()` holds; real time, bounded (the server needs a few turns to take the request in). */
async function until(cond: () => boolean, what: string, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** An enrolled cabinet that alice's key may enqueue drops for. */
async function cabinet(t: TestServer) {
  const e = await enrolled(t);
  await t.ctx.database.db.updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', e.serial).execute();
  const m = await machineRow(t, e.serial);
  return { ...e, machineId: m.id };
}

function poll(t: TestServer, key: string, wait: string, signal?: AbortSignal) {
  const url = new URL(`${t.url}/cabinet/pending`);
  url.searchParams.set('wait', wait);
  return checkedFetch(url, { headers: keyHeader(key), ...(signal ? { signal } : {}) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as Body<PendingData>,
  }));
}

function enqueue(t: TestServer, serial: string, aisleNo = 4) {
  return expectStatus<{ commandId: string }>(
    call(t.url, 'POST', `/api/v1/machines/${serial}/commands/dispense`, { headers: ALICE, json: { aisleNo, reason: 'long poll' } }),
    200,
  );
}

describe.each(DIALECTS)('pending long poll (%s)', (dialect) => {
  let t: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    clock = t.clock as ManualClock;
  });
  afterAll(async () => {
    await t.close();
  });

  it('an enqueue during a hold answers it at once with the command', async () => {
    const c = await cabinet(t);
    const answer = poll(t, c.key, '2');
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold');
    const started = Date.now();
    const cmd = await enqueue(t, c.serial);
    const r = await answer;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(r.status).toBe(200);
    expect(r.body.data.commands.map((x) => x.commandId)).toEqual([cmd.body.data.commandId]);
    expect(t.services.runtime.pendingNotifier.holding(c.machineId)).toBe(0);
  });

  it('with commands already pending it answers at once; without wait it never holds', async () => {
    const c = await cabinet(t);
    const none = await expectStatus<PendingData>(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(c.key) }), 200);
    expect(none.body.data.commands).toEqual([]);
    const zero = await poll(t, c.key, '0');
    expect(zero.body.data.commands).toEqual([]);
    await enqueue(t, c.serial);
    const r = await poll(t, c.key, '25');
    expect(r.body.data.commands).toHaveLength(1);
    expect(t.services.runtime.pendingNotifier.holding()).toBe(0);
  });

  it('with nothing enqueued it answers empty once the wait is over, re-reading the store on the way', async () => {
    const c = await cabinet(t);
    let settled = false;
    const answer = poll(t, c.key, '5').finally(() => (settled = true));
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold');
    clock.advance(2_000); // a re-check: still nothing, held again
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the second hold');
    clock.advance(2_000);
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the third hold');
    expect(settled).toBe(false);
    clock.advance(1_000);
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.body.data.commands).toEqual([]);
    expect(t.services.runtime.pendingNotifier.holding(c.machineId)).toBe(0);
  });

  it('a wait over 25 s or negative is 400 in the envelope; a non-integer is 422 (as paging); nothing is held', async () => {
    const c = await cabinet(t);
    for (const wait of ['26', '-1']) {
      const r = await poll(t, c.key, wait);
      expect(r.status, wait).toBe(400);
      expect(r.body.code).toBe(400);
      expect(JSON.stringify(r.body)).toContain('query.wait');
    }
    for (const wait of ['soon', '1.5']) expect((await poll(t, c.key, wait)).status, wait).toBe(422);
    expect(t.services.runtime.pendingNotifier.holding()).toBe(0);
  });

  it('a client that goes away mid-hold releases its place', async () => {
    const c = await cabinet(t);
    const ac = new AbortController();
    const answer = poll(t, c.key, '20', ac.signal).catch((e: unknown) => e);
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold');
    ac.abort();
    await answer;
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 0, 'the release');
  });

  it('at most 4 holds per machine: a fifth call answers at once', async () => {
    const c = await cabinet(t);
    const held = [1, 2, 3, 4].map(() => poll(t, c.key, '10'));
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 4, 'four holds');
    const fifth = await poll(t, c.key, '10');
    expect(fifth.body.data.commands).toEqual([]);
    await enqueue(t, c.serial);
    for (const r of await Promise.all(held)) expect(r.body.data.commands).toHaveLength(1);
  });
});

describe.each(DIALECTS)('pending long poll, shutdown (%s)', (dialect) => {
  it('closing the context answers a held call empty at once', async () => {
    const t = await startTestServer(dialect);
    try {
      const c = await cabinet(t);
      const answer = poll(t, c.key, '20');
      await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold');
      t.services.runtime.pendingNotifier.close();
      const r = await answer;
      expect(r.body.data.commands).toEqual([]);
      expect((await poll(t, c.key, '20')).body.data.commands).toEqual([]); // no new hold starts
    } finally {
      await t.close();
    }
  });
});

/**
 * Two replicas on one PostgreSQL store and one clock (replicas share PostgreSQL; a SQLite file has one
 * process). A replica does not hear another's enqueue (no pub/sub): the holder's own re-check every 2 s
 * finds it. A command written to the store with no signal stands for one enqueued by another process.
 */
describe.each(DIALECTS.filter((d) => d === 'postgres'))('pending long poll across replicas on one %s store', (dialect) => {
  let replicas: Replicas;
  let a: TestServer;
  let b: TestServer;
  let database: Database;
  let clock: ManualClock;
  beforeAll(async () => {
    replicas = await startReplicas(dialect);
    ({ a, b, database, clock } = replicas);
  });
  afterAll(async () => replicas.close());

  it('a command enqueued elsewhere reaches a hold on this replica at its next re-check (≤ 2 s)', async () => {
    const c = await cabinet(a);
    let settled = false;
    const answer = poll(b, c.key, '20').finally(() => (settled = true));
    await until(() => b.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold on b');
    const now = clock.now();
    const id = newId('cmd', now);
    await database.db
      .insertInto('dispense_commands')
      .values({
        id,
        machine_id: c.machineId,
        aisle_no: 4,
        reason: 'from another replica',
        external_ref: null,
        status: 'pending',
        outcome: null,
        detail: null,
        order_number: null,
        requested_by: null,
        created_at: now,
        acked_at: null,
        expired_at: null,
        updated_at: now,
      })
      .execute();
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false); // no signal reached b
    clock.advance(2_000);
    const r = await answer;
    expect(r.body.data.commands.map((x) => x.commandId)).toEqual([id]);
  });

  it('an enqueue through replica a answers a hold on replica b', async () => {
    const c = await cabinet(a);
    const answer = poll(b, c.key, '20');
    await until(() => b.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold on b');
    const cmd = await enqueue(a, c.serial);
    clock.advance(2_000); // across processes the re-check finds it; in this one process the signal already did
    const r = await answer;
    expect(r.body.data.commands.map((x) => x.commandId)).toEqual([cmd.body.data.commandId]);
  });
});

/**
 * Cross-replica push (docs/decisions/scale-out.md): an enqueue on one replica is broadcast (PostgreSQL
 * LISTEN/NOTIFY, or Redis pub/sub when REDIS_URL is set) and wakes a hold on another at once. The replicas'
 * ManualClock never moves here, so the store probe never runs: only the broadcast can answer the hold.
 */
const PUSH_SETUPS: { name: string; dialect: 'sqlite' | 'postgres'; env: Record<string, string> }[] = [
  ...DIALECTS.filter((d) => d === 'postgres').map((d) => ({ name: 'PostgreSQL LISTEN/NOTIFY', dialect: d, env: {} })),
  ...(process.env['REDIS_URL']
    ? [
        {
          name: 'Redis pub/sub',
          dialect: 'sqlite' as const,
          env: { REDIS_URL: process.env['REDIS_URL'], REDIS_KEY_PREFIX: `t${randomBytes(4).toString('hex')}:` },
        },
      ]
    : []),
];
describe.each(PUSH_SETUPS)('pending long poll pushed across replicas: $name', ({ dialect, env }) => {
  let replicas: Replicas;
  beforeAll(async () => {
    replicas = await startReplicas(dialect, env);
  });
  afterAll(async () => replicas.close());

  it('an enqueue on replica a answers a hold on replica b without waiting for b to probe', async () => {
    const { a, b } = replicas;
    expect(b.services.runtime.broadcast?.listening).toBe(true);
    const c = await cabinet(a);
    let settled = false;
    const answer = poll(b, c.key, '20').finally(() => (settled = true));
    await until(() => b.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold on b');
    const probes = vi.spyOn(b.services.runtime.pendingNotifier, 'probeNow');
    const cmd = await enqueue(a, c.serial);
    await until(() => settled, 'the answer on b', 10_000);
    const r = await answer;
    expect(r.body.data.commands.map((x) => x.commandId)).toEqual([cmd.body.data.commandId]);
    expect(probes).not.toHaveBeenCalled();
    probes.mockRestore();
  });
});

describe('pending long poll on SQLite', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t.close());

  it('holds without re-reading the store (one process per file: every enqueue is signalled in-process)', async () => {
    const c = await cabinet(t);
    let settled = false;
    const answer = poll(t, c.key, '20').finally(() => (settled = true));
    await until(() => t.services.runtime.pendingNotifier.holding(c.machineId) === 1, 'the hold');
    const reads = vi.spyOn(CommandsRepo.prototype, 'pending');
    const clock = t.clock as ManualClock;
    for (let i = 0; i < 5; i++) clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    expect(t.services.runtime.pendingNotifier.holding(c.machineId)).toBe(1);
    const cmd = await enqueue(t, c.serial);
    const r = await answer;
    expect(r.body.data.commands.map((x) => x.commandId)).toEqual([cmd.body.data.commandId]);
    expect(reads).toHaveBeenCalledTimes(1); // the read after the signal, none while held
    reads.mockRestore();
  });
});
