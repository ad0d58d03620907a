import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { serialportTransport } from '@vend/agent';
import { VmcFrameDecoder, encodeHostMessage, parseBoardFrame } from '@vend/protocol';
import type { VmcBoardMessage, VmcHostMessage } from '@vend/protocol';
import { SANDBOX, api, cleanup, control, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';

// The serial link across sessions through the daemon (issue 29), as real processes: the cloud sandbox,
// `vmc-sim` on a pseudo-terminal pair and `vend-agent run`. The board holds an earlier session's
// dispense when the daemon starts; later it restarts in place with new firmware mid-session.

const MACHINE = 'SBX-ALICE-0001';
const dir = tempDir('vmc-sessions-e2e-');
let cloud: CloudProc;
let sim: SimProc;
let agent: AgentProc;
let token: string;

type Command = { commandId: string; status: string; outcome: string | null };
type Status = { board: { state: string; vmcVersion: string | null; bootId: number | null }; dispensing: { recovered: boolean } };
type SimState = { board: { bootId: number; vmcVersion: string; lastSeq: number; keptSeq: number } };

const agentStatus = async (): Promise<Status> => (await control<Status>(agent, 'GET', '/v1/status', token)).body;
const simState = async (): Promise<SimState> => (await (await fetch(`${sim.control}/state`)).json()) as SimState;
const enqueue = async (aisleNo: number): Promise<Command> => {
  const r = await api<Command>(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, { aisleNo, reason: 'e2e' });
  expect(r.status, r.message).toBe(200);
  return r.data;
};
const finished = (id: string): Promise<Command> =>
  waitFor(
    async () => {
      const c = (await api<Command>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/commands/${id}`, SANDBOX.alice)).data;
      return c.status === 'acknowledged' || c.status === 'failed' ? c : undefined;
    },
    30_000,
    `command ${id} reported`,
  );

/**
 * An earlier host session on the board's port, frame by frame: what a previous daemon or a motor test
 * left behind. Sends each frame and waits for the board's answer of that kind.
 */
async function earlierSession(
  port: string,
  steps: (ask: (seq: number, m: VmcHostMessage, want: VmcBoardMessage['kind']) => Promise<VmcBoardMessage>) => Promise<void>,
) {
  const decoder = new VmcFrameDecoder('board');
  const inbox: { seq: number; message: VmcBoardMessage }[] = [];
  const conn = await serialportTransport().open(port, {
    data: (chunk) => {
      for (const f of decoder.push(chunk)) {
        const p = parseBoardFrame(f);
        if (p.ok) inbox.push({ seq: p.seq, message: p.message });
      }
    },
    closed: () => {},
  });
  try {
    await steps(async (seq, m, want) => {
      await conn.write(encodeHostMessage(seq, m));
      const until = Date.now() + 10_000;
      for (;;) {
        const i = inbox.findIndex((x) => x.seq === seq && x.message.kind === want);
        if (i >= 0) return inbox.splice(i, 1)[0]!.message;
        if (Date.now() > until) throw new Error(`no ${want} for seq ${seq}`);
        await sleep(10);
      }
    });
  } finally {
    await conn.close();
  }
}

afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`the serial link across sessions, through the daemon${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  beforeAll(async () => {
    cloud = await startCloud({ dataDir: join(dir, 'cloud'), env: { DISPENSE_TIMEOUT_SECONDS: '600' } });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, {
      pollInterval: 1,
      heartbeatInterval: 10,
      module: 'SH',
    });
    expect(s.status, s.message).toBe(200);
    sim = await startSim({
      link: join(dir, 'ttyVMC0'),
      args: ['--module', 'SH', '--motor-ms', '400', '--drop-ms', '100', '--seed', '29', '--vmc-version', '2.4.1'],
    });
  }, 120_000);

  it('a board holding an earlier session’s dispense: the daemon bars its seq, the motor runs, one sale per motor run', async () => {
    // the frames: an earlier session vended aisle 3 at seq 63, then left the board's last seq at 60
    await earlierSession(sim.port, async (ask) => {
      const st = await ask(0, { kind: 'status' }, 'status');
      const bootId = st.kind === 'status' ? st.bootId : 0;
      expect(await ask(63, { kind: 'dispense', aisle: 3, bootId }, 'result')).toMatchObject({ code: 'success' });
      await ask(60, { kind: 'status' }, 'status');
    });
    expect((await motorLog(sim)).filter((m) => m.aisle === 3)).toHaveLength(1);

    agent = await startAgent({ stateDir: join(dir, 'agent'), cloudUrl: cloud.url, equipmentNo: MACHINE, serialPort: sim.port });
    token = readFileSync(join(agent.stateDir, 'control-token'), 'utf8').trim();
    await waitFor(
      async () => (await agentStatus()).board.state === 'ok' && (await agentStatus()).dispensing.recovered,
      30_000,
      'the agent talking to the board',
    );
    // the daemon's greeting, INFO 61 and STATUS 62: its next seq is the kept dispense's (the premise of the fault)
    expect((await simState()).board).toMatchObject({ lastSeq: 62, keptSeq: 63 });

    const done = await finished((await enqueue(3)).commandId);
    expect(done).toMatchObject({ status: 'acknowledged', outcome: 'success' });
    const runs = (await motorLog(sim)).filter((m) => m.aisle === 3);
    expect(runs, 'the sale the cloud recorded is a motor run of its own').toHaveLength(2);
    expect(runs[1]!.seq).not.toBe(63);
  }, 90_000);

  it('a board restarted with new firmware mid-session: INFO is read before the next dispense, the agent reports the new firmware at once', async () => {
    expect((await agentStatus()).board.vmcVersion).toBe('2.4.1');
    const r = await fetch(`${sim.control}/actions`, { method: 'POST', body: JSON.stringify({ do: 'reboot', vmcVersion: '2.5.0' }) });
    expect(r.status).toBe(200);
    const { board } = await simState();
    expect(board.vmcVersion).toBe('2.5.0');

    const done = await finished((await enqueue(4)).commandId);
    expect(done).toMatchObject({ status: 'acknowledged', outcome: 'success' });
    // the daemon's own board check runs once a minute: this is the INFO the driver read before the dispense
    expect((await agentStatus()).board).toMatchObject({ vmcVersion: '2.5.0', bootId: board.bootId });
    const lines = agent.out().split('\n');
    const infoAt = lines.findIndex((l) => l.includes('board info read again'));
    const vendAt = lines.findIndex((l) => l.includes('"dispense finished"') && l.includes('"aisle":4'));
    expect(infoAt).toBeGreaterThanOrEqual(0);
    expect(infoAt).toBeLessThan(vendAt);
  }, 60_000);
});
