import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, socatAvailable } from '@vend/firmware-sim';
import { SANDBOX, api, cleanup, control, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';

// The agent killed with SIGKILL at random points of its dispenses, 50 times, while remote drops
// keep coming: every drop ends in exactly one report, the board never drops twice for one, and
// the cloud has exactly one sale per motor run.

const MACHINE = 'SBX-ALICE-0002';
const KILLS = Number(process.env['CRASH_KILLS'] ?? 50);
/** Drops waiting at the start; one more arrives before each life, so every life has work. */
const UPFRONT = 10;
const COMMANDS = UPFRONT + KILLS;
const SEED = Number(process.env['CRASH_SEED'] ?? 20261122);

const dir = tempDir('agent-crash-');
let cloud: CloudProc;
let sim: SimProc;

type Command = { commandId: string; aisleNo: number; status: string; outcome: string | null; detail: string | null };
type Summary = { byChannel: { channel: string; count: number }[] };

const apiDropSales = async (): Promise<number> => {
  const s = await api<Summary>(cloud.url, 'GET', `/api/v1/orders/summary?machineNo=${MACHINE}`, SANDBOX.alice);
  return s.data.byChannel.find((c) => c.channel === 'api_drop')?.count ?? 0;
};

afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`the agent under SIGKILL${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  beforeAll(async () => {
    cloud = await startCloud({ dataDir: join(dir, 'cloud'), env: { DISPENSE_TIMEOUT_SECONDS: '3600' } });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, { pollInterval: 1, module: 'SH' });
    expect(s.status, s.message).toBe(200);
    for (let aisle = 1; aisle <= 10; aisle++) {
      const r = await api(cloud.url, 'PUT', `/api/v1/inventory/machines/${MACHINE}/aisles/${aisle}`, SANDBOX.alice, {
        maxStock: 99,
        currentStock: 99,
        faulted: false,
      });
      expect(r.status, r.message).toBe(200);
    }
    // a quick board (SH, short motor, frame pacing) so 50 lives fit in the suite's budget
    sim = await startSim({
      link: join(dir, 'ttyVMC0'),
      args: ['--module', 'SH', '--motor-ms', '150', '--drop-ms', '50', '--pace', 'frame', '--stock', '999', '--seed', '3'],
    });
  }, 120_000);

  it(`${KILLS} SIGKILLs at random points: no duplicate and no lost report, no double drop at the board, one sale per drop`, async () => {
    const random = seededRandom(SEED);
    const salesBefore = await apiDropSales();
    const commands: Command[] = [];
    const enqueue = async (): Promise<void> => {
      const i = commands.length;
      const r = await api<Command>(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, {
        aisleNo: (i % 10) + 1,
        reason: `crash drill ${i}`,
      });
      expect(r.status, r.message).toBe(200);
      commands.push(r.data);
    };
    for (let i = 0; i < UPFRONT; i++) await enqueue();
    const stateDir = join(dir, 'agent');
    const opts = { stateDir, cloudUrl: cloud.url, equipmentNo: MACHINE, serialPort: sim.port };
    const outputs: string[] = [];
    const t0 = Date.now();
    for (let k = 0; k < KILLS; k++) {
      await enqueue();
      const agent: AgentProc = await startAgent(opts);
      // somewhere in the life of the agent: enrolment, register, a poll, an intent, a frame, a report
      await new Promise((r) => setTimeout(r, 150 + Math.floor(random.int(1000))));
      await agent.kill();
      outputs.push(agent.out());
    }
    const killedFor = Date.now() - t0;

    // a last life, left to finish the work
    const agent = await startAgent(opts);
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    const finals = await waitFor(
      async () => {
        const all = await Promise.all(
          commands.map(async (c) => (await api<Command>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/commands/${c.commandId}`, SANDBOX.alice)).data),
        );
        return all.every((c) => c.status === 'acknowledged' || c.status === 'failed') ? all : undefined;
      },
      90_000,
      'every drop to be reported',
      500,
    );
    const st = await waitFor(
      async () => {
        const s = (await control<{ spool: { depth: number; rejected: unknown[] }; dispensing: { leased: number } }>(agent, 'GET', '/v1/status', token)).body;
        return s.spool.depth === 0 && s.dispensing.leased === 0 ? s : undefined;
      },
      30_000,
      'the spool to drain',
    );
    await agent.stop();
    outputs.push(agent.out());

    const acknowledged = finals.filter((c) => c.status === 'acknowledged');
    const failed = finals.filter((c) => c.status === 'failed');
    // nothing lost: every drop has its one report; nothing refused by the cloud
    expect(st.spool.rejected).toEqual([]);
    expect(acknowledged.length + failed.length).toBe(COMMANDS);
    // a failure can only be a request the board provably never received (killed between intent and frame)
    for (const f of failed) {
      expect(f.outcome).toBe('board_unavailable');
      expect(f.detail).toMatch(/agent restarted: the board never accepted the request/);
    }
    for (const a of acknowledged) expect(a.outcome).toBe('success');
    // no double drop: per aisle, the board ran its motor exactly as often as the cloud was told it did
    const runs = await motorLog(sim);
    for (let aisle = 1; aisle <= 10; aisle++) {
      expect(runs.filter((r) => r.aisle === aisle).length, `aisle ${aisle}`).toBe(acknowledged.filter((c) => c.aisleNo === aisle).length);
    }
    // exactly one sale per drop
    expect((await apiDropSales()) - salesBefore).toBe(acknowledged.length);

    const deliveries = outputs
      .join('\n')
      .split('\n')
      .filter((l) => l.includes('"report delivered"'))
      .map((l) => JSON.parse(l) as { dispenseId: string; duplicate: boolean });
    const duplicates = deliveries.filter((d) => d.duplicate).length;
    const recovered = outputs
      .join('\n')
      .split('\n')
      .filter((l) => l.includes('settled a dispense interrupted by a restart')).length;
    // the journal (not the log, which a kill can cut short) marks every drop's report delivered, exactly once
    const journal = readFileSync(join(stateDir, 'journal.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { t: string; id: string });
    const marks = journal.filter((r) => r.t === 'delivered').map((r) => r.id);
    expect(new Set(marks).size).toBe(COMMANDS);
    expect(marks.length).toBe(COMMANDS);
    expect(journal.filter((r) => r.t === 'outcome').length).toBe(COMMANDS);
    // a second delivery happens only for a kill between the cloud's 2xx and the journal's mark
    expect(duplicates).toBeLessThanOrEqual(KILLS);
    console.log(
      `crash drill (seed ${SEED}): ${KILLS} kills in ${Math.round(killedFor / 1000)} s; ${acknowledged.length} drops vended, ${failed.length} never sent; ` +
        `${recovered} dispenses settled from the board after a restart; ${deliveries.length} deliveries, ${duplicates} answered as duplicates by the cloud; ${runs.length} motor runs`,
    );
  }, 300_000);
});
