import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { VEND_AGENT, run } from './support/processes.ts';
import { SANDBOX, api, cleanup, control, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';
import { canMountTmpfs, fillDisk, mountTmpfs } from './support/tmpfs.ts';

// The cabinet's state disk full, as real processes (docs/decisions/outages.md, "The cabinet"): `vend-agent run`
// with its state directory on a 4 MB tmpfs the test mounts, the cloud sandbox, `vmc-sim` on a pseudo-terminal
// pair. Filled to the last byte: the daemon stays up, a walk-up is refused 503 `disk-full` before an order is
// opened, status and `vend-agent status` say why; space back, without a restart: the line goes, sales go on, every
// report is delivered once and the journal is whole.

const MACHINE = 'SBX-ALICE-0001';

type Status = {
  enrolment: { state: string };
  cloud: { registeredAt: string | null };
  board: { state: string };
  spool: { depth: number };
  dispensing: { recovered: boolean };
  lastErrors: { source: string; message: string }[];
};

describe.runIf(canMountTmpfs && socatAvailable())('the cabinet state disk full, end to end', () => {
  const dir = tempDir('agent-outages-disk-');
  let disk: { dir: string; close(): void };
  let cloud: CloudProc;
  let sim: SimProc;
  let agent: AgentProc;
  let token: string;
  const status = async (): Promise<Status> => (await control<Status>(agent, 'GET', '/v1/status', token)).body;
  const sell = (aisle: number) =>
    control<{ error?: string; orderNumber?: string; success?: boolean }>(agent, 'POST', '/v1/dispense', token, { aisle, payMethod: 'cash' });
  const orders = async (): Promise<number> => {
    const r = await api<unknown[]>(cloud.url, 'GET', `/api/v1/orders?machineCode=${MACHINE}&pageSize=100`, SANDBOX.alice);
    return (r.data as unknown[]).length;
  };

  beforeAll(async () => {
    disk = mountTmpfs('4m');
    cloud = await startCloud({ dataDir: join(dir, 'cloud') });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, {
      pollInterval: 1,
      heartbeatInterval: 10,
      module: 'SH',
    });
    expect(s.status, s.message).toBe(200);
    sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--module', 'SH', '--motor-ms', '200', '--drop-ms', '50', '--seed', '3'] });
    agent = await startAgent({ stateDir: join(disk.dir, 'agent'), cloudUrl: cloud.url, equipmentNo: MACHINE, serialPort: sim.port });
    token = fs.readFileSync(join(agent.stateDir, 'control-token'), 'utf8').trim();
    await waitFor(
      async () => {
        const st = await status();
        return st.enrolment.state === 'enrolled' && st.cloud.registeredAt !== null && st.board.state === 'ok' && st.dispensing.recovered;
      },
      30_000,
      'the agent enrolled, registered and talking to the board',
    );
  }, 90_000);

  afterAll(async () => {
    await cleanup(dir);
    disk?.close();
  });

  it('refuses sales it could not record, says why, and takes them again when space returns', async () => {
    const first = await sell(1);
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    fillDisk(join(disk.dir, 'filler'));
    const before = await orders();
    const refused = await sell(2);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('disk-full');
    expect(await orders()).toBe(before); // refused before the cloud opened an order
    expect((await status()).lastErrors.filter((e) => e.source === 'disk')).toHaveLength(1);
    const text = await run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, 'status']);
    expect(text.stdout).toMatch(/the state disk is full/);
    expect(agent.child.exitCode).toBeNull(); // the daemon runs on

    fs.rmSync(join(disk.dir, 'filler'));
    expect((await status()).lastErrors.filter((e) => e.source === 'disk')).toHaveLength(0);
    const again = await sell(3);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await waitFor(async () => (await status()).spool.depth === 0, 15_000, 'the reports delivered');
    const delivered = agent
      .out()
      .split('\n')
      .filter((l) => l.includes('"report delivered"'))
      .map((l) => (JSON.parse(l) as { dispenseId: string }).dispenseId);
    expect(delivered.sort()).toEqual([`walkup:${first.body.orderNumber}`, `walkup:${again.body.orderNumber}`].sort());
    const lines = fs.readFileSync(join(agent.stateDir, 'journal.log'), 'utf8').split('\n');
    expect(lines.pop()).toBe(''); // ends with a whole line
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  }, 60_000);
});
