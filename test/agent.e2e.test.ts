import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { VEND_AGENT, run } from './support/processes.ts';
import { SANDBOX, api, cleanup, control, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';
import { checkedFetch } from '@vend/cloud/testing/contract';

// The cabinet end to end, as real processes: the cloud sandbox, `vmc-sim` on a pseudo-terminal
// pair, and `vend-agent run` enrolled with the sandbox fleet secret.

const MACHINE = 'SBX-ALICE-0001';
const dir = tempDir('agent-e2e-');
let cloud: CloudProc;
let sim: SimProc;
let agent: AgentProc;
let token: string;

type Status = {
  enrolment: { state: string; keyId: string | null };
  cloud: { reachable: boolean; lastAnswerAt: string | null; registeredAt: string | null };
  board: { state: string; vmcVersion: string | null };
  spool: { depth: number; delivered: number };
  dispensing: { leased: number; busy: boolean; recovered: boolean };
};
type Command = { commandId: string; status: string; outcome: string | null; orderNumber: string | null };

const status = async (): Promise<Status> => (await control<Status>(agent, 'GET', '/v1/status', token)).body;
const enqueue = async (aisleNo: number, reason = 'e2e'): Promise<Command> => {
  const r = await api<Command>(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, { aisleNo, reason });
  expect(r.status, r.message).toBe(200);
  return r.data;
};
const command = async (id: string): Promise<Command> =>
  (await api<Command>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/commands/${id}`, SANDBOX.alice)).data;
const stockOf = async (aisle: number): Promise<number> => {
  const inv = await api<{ aisles: { aisleNo: number; currentStock: number }[] }>(cloud.url, 'GET', `/api/v1/inventory/machines/${MACHINE}`, SANDBOX.alice);
  return inv.data.aisles.find((a) => a.aisleNo === aisle)!.currentStock;
};
const cli = (...args: string[]) => run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, ...args]);
const reportLines = (dispenseId: string): { duplicate: boolean }[] =>
  agent
    .out()
    .split('\n')
    .filter((l) => l.includes('"report delivered"') && l.includes(`"dispenseId":"${dispenseId}"`))
    .map((l) => JSON.parse(l) as { duplicate: boolean });

afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`cabinet end to end${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  beforeAll(async () => {
    cloud = await startCloud({ dataDir: join(dir, 'cloud'), env: { DISPENSE_TIMEOUT_SECONDS: '600' } });
    // a short poll keeps the suite quick; the agent takes it from the configuration block
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, {
      pollInterval: 1,
      heartbeatInterval: 10,
      module: 'SH',
    });
    expect(s.status, s.message).toBe(200);
    sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--module', 'SH', '--motor-ms', '400', '--drop-ms', '100', '--seed', '7'] });
    agent = await startAgent({ stateDir: join(dir, 'agent'), cloudUrl: cloud.url, equipmentNo: MACHINE, serialPort: sim.port });
    token = readFileSync(join(agent.stateDir, 'control-token'), 'utf8').trim();
    await waitFor(
      async () => {
        const st = await status();
        return st.enrolment.state === 'enrolled' && st.cloud.registeredAt !== null && st.board.state === 'ok' && st.dispensing.recovered;
      },
      30_000,
      'the agent enrolled, registered and talking to the board',
    );
  }, 120_000);

  it('enrols with the fleet secret: keyId:deviceKey stored 0600, the cloud shows the cabinet enrolled and its versions', async () => {
    const credential = readFileSync(join(agent.stateDir, 'credential'), 'utf8').trim();
    expect(credential).toMatch(/^dk_[0-9a-f]{16}:[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(agent.stateDir, 'credential')).mode & 0o777).toBe(0o600);
    expect(statSync(join(agent.stateDir, 'control-token')).mode & 0o777).toBe(0o600);
    const fleet = await api<{ machines: { machineNo: string; state: string; keyId: string | null }[] }>(
      cloud.url,
      'GET',
      '/api/v1/machines/device-credentials/fleet?size=100',
      SANDBOX.admin,
    );
    const row = fleet.data.machines.find((m) => m.machineNo === MACHINE);
    expect(row).toMatchObject({ state: 'enrolled', keyId: credential.split(':')[0] });
    const software = await api<{ agentVersion: string | null }>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/agent`, SANDBOX.admin);
    expect(software.data.agentVersion).toBe('0.1.0');
    const st = await cli('status', '--json');
    expect(st.code, st.stderr).toBe(0);
    expect(JSON.parse(st.stdout)).toMatchObject({ enrolment: { state: 'enrolled' }, board: { state: 'ok', vmcVersion: '2.4.1' }, spool: { depth: 0 } });
    const shown = await cli('credential', 'show');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(credential.split(':')[0]);
    expect(shown.stdout).not.toContain(credential.split(':')[1]);
  });

  it("an operator's api_drop reaches the board: the command is acknowledged, the order shipped, the aisle decremented", async () => {
    const before = await stockOf(4);
    const runsBefore = (await motorLog(sim)).length;
    const cmd = await enqueue(4);
    const done = await waitFor(
      async () => {
        const c = await command(cmd.commandId);
        return c.status !== 'pending' ? c : undefined;
      },
      20_000,
      'the command to be reported',
    );
    expect(done).toMatchObject({ status: 'acknowledged', outcome: 'success' });
    const runs = (await motorLog(sim)).slice(runsBefore);
    expect(runs.map((r) => r.aisle)).toEqual([4]);
    const order = await api<{ payStatus: string; channel: string; aisleNo: number }>(cloud.url, 'GET', `/api/v1/orders/${done.orderNumber}`, SANDBOX.alice);
    expect(order.data).toMatchObject({ payStatus: 'shipped', channel: 'api_drop', aisleNo: 4 });
    expect(await stockOf(4)).toBe(before - 1);
    expect(reportLines(`drop:${cmd.commandId}`)).toEqual([expect.objectContaining({ duplicate: false })]);
  });

  it('a walk-up dispense through the control channel becomes an order; a second one while the lock is held is refused', async () => {
    const before = await stockOf(2);
    const [a, b] = await Promise.all([
      control<{ success: boolean; orderNumber: string; outcome: string }>(agent, 'POST', '/v1/dispense', token, { aisle: 2, payMethod: 'cash' }),
      (async () => {
        await new Promise((r) => setTimeout(r, 100));
        return control<{ error: string }>(agent, 'POST', '/v1/dispense', token, { aisle: 3, payMethod: 'cash' });
      })(),
    ]);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, outcome: 'success' });
    expect(b.status).toBe(409);
    expect(b.body.error).toBe('busy');
    const order = await waitFor(
      async () => {
        const o = await api<{ payStatus: string; channel: string }>(cloud.url, 'GET', `/api/v1/orders/${a.body.orderNumber}`, SANDBOX.alice);
        return o.data.payStatus === 'shipped' ? o.data : undefined;
      },
      10_000,
      'the walk-up order to be settled',
    );
    expect(order).toMatchObject({ channel: 'walkup', payStatus: 'shipped' });
    expect(await stockOf(2)).toBe(before - 1);

    const cliRun = await cli('dispense', '--aisle', '5', '--json');
    expect(cliRun.code, cliRun.stderr).toBe(0);
    expect(JSON.parse(cliRun.stdout)).toMatchObject({ success: true, aisle: 5 });
  });

  it('the control channel: 401 without the token, and an empty token refuses every dispense', async () => {
    const noToken = await fetch(agent.control + '/v1/dispense', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"aisle":1}' });
    expect(noToken.status).toBe(401);
    const runs = (await motorLog(sim)).length;
    const file = join(agent.stateDir, 'control-token');
    writeFileSync(file, '\n');
    try {
      const r = await control<{ message: string }>(agent, 'POST', '/v1/dispense', token, { aisle: 1 });
      expect(r.status).toBe(401);
      expect(r.body.message).toMatch(/empty control token/);
      const viaCli = await cli('dispense', '--aisle', '1');
      expect(viaCli.code).toBe(6);
    } finally {
      writeFileSync(file, token + '\n', { mode: 0o600 });
    }
    expect((await motorLog(sim)).length).toBe(runs);
  });

  it('the upgrade pipeline is wired in: the trigger asks the cloud (no rollout: nothing offered), and the quiet facts are live', async () => {
    const r = await control<{ result: string }>(agent, 'POST', '/v1/upgrade/check', token);
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('none');
    const st = (
      await control<{ upgrade: { quiet: { vendLockFree: boolean; leased: number; spoolDepth: number; secondsSinceActivity: number } } }>(
        agent,
        'GET',
        '/v1/status',
        token,
      )
    ).body;
    expect(st.upgrade.quiet).toMatchObject({ vendLockFree: true, leased: 0, spoolDepth: 0 });
    expect(st.upgrade.quiet.secondsSinceActivity).toBeGreaterThanOrEqual(0);
  });

  it('a rotation mid-run: the handover is stored, presented from then on, and the old generation retires', async () => {
    const oldCredential = readFileSync(join(agent.stateDir, 'credential'), 'utf8').trim();
    const r = await api(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/device-credential/rotate`, SANDBOX.alice);
    expect(r.status, r.message).toBe(200);
    const next = await waitFor(
      () => {
        const c = readFileSync(join(agent.stateDir, 'credential'), 'utf8').trim();
        return c !== oldCredential ? c : undefined;
      },
      10_000,
      'the rotated credential on disk',
    );
    expect(next.split(':')[0]).not.toBe(oldCredential.split(':')[0]);
    // work goes on with the new generation
    const cmd = await enqueue(6);
    await waitFor(async () => (await command(cmd.commandId)).status === 'acknowledged', 20_000, 'a drop after the rotation');
    // the agent presented N+1, which retired N: the old key is refused now
    const old = await checkedFetch(cloud.url + '/cabinet/config', { headers: { 'x-device-key': oldCredential } });
    expect(old.status).toBe(401);
    const cur = await checkedFetch(cloud.url + '/cabinet/config', { headers: { 'x-device-key': next } });
    expect(cur.status).toBe(200);
  });

  it('the cloud stopped for a while: walk-ups are refused, reports spool, and are delivered exactly once when it returns', async () => {
    const cmds = [await enqueue(7), await enqueue(8), await enqueue(9)];
    const ids = new Set(cmds.map((c) => c.commandId));
    const vendsOfOurs = async () =>
      (await control<{ vends: { commandId: string | null; report: string }[] }>(agent, 'GET', '/v1/vends?limit=50', token)).body.vends.filter(
        (v) => v.commandId !== null && ids.has(v.commandId),
      );
    // the outage begins the moment the agent holds all three (the last one cannot have run yet)
    await waitFor(async () => (await status()).dispensing.leased + (await vendsOfOurs()).length >= 3, 10_000, 'the agent to take the three drops', 10);
    await cloud.kill(); // gone at once, like a network cut
    let seen: Status | null = null;
    const spooled = await waitFor(
      async () => {
        const s = (seen = await status());
        return s.dispensing.leased === 0 && (await vendsOfOurs()).length === 3 ? s : undefined;
      },
      30_000,
      'the three drops to finish with the cloud away',
    ).catch((e: Error) => {
      throw new Error(`${e.message}; last status ${JSON.stringify(seen)}`);
    });
    expect(spooled.spool.depth).toBeGreaterThanOrEqual(1);
    expect((await vendsOfOurs()).filter((v) => v.report === 'pending').length).toBe(spooled.spool.depth);
    expect(spooled.cloud.reachable).toBe(false);
    const refused = await control<{ error: string }>(agent, 'POST', '/v1/dispense', token, { aisle: 1 });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('cloud-unreachable');

    cloud = await startCloud({ dataDir: cloud.dataDir, port: cloud.port, env: { DISPENSE_TIMEOUT_SECONDS: '600' } });
    await waitFor(async () => (await status()).spool.depth === 0, 30_000, 'the spool to drain');
    for (const c of cmds) {
      expect(await command(c.commandId)).toMatchObject({ status: 'acknowledged', outcome: 'success' });
      expect(reportLines(`drop:${c.commandId}`)).toEqual([expect.objectContaining({ duplicate: false })]);
    }
    const runs = await motorLog(sim);
    for (const aisle of [7, 8, 9]) expect(runs.filter((r) => r.aisle === aisle)).toHaveLength(1);
  }, 90_000);

  it('a revocation: the agent stops presenting its key, says so in status and logs, and does not enrol again after a restart', async () => {
    const r = await api(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/device-credential/revoke`, SANDBOX.admin, {
      by: 'e2e',
      reason: 'stolen cabinet drill',
    });
    expect(r.status, r.message).toBe(200);
    const st = await waitFor(
      async () => {
        const s = await status();
        return s.enrolment.state === 'revoked' ? s : undefined;
      },
      10_000,
      'the agent to notice the revocation',
    );
    // no call presents the key any more: nothing reaches the cloud, though the poll interval is 1 s
    const answered = st.cloud.lastAnswerAt;
    await new Promise((res) => setTimeout(res, 3000));
    expect((await status()).cloud.lastAnswerAt).toBe(answered);
    expect(agent.out()).toMatch(/revoked this cabinet credential/);
    const s2 = await cli('status');
    expect(s2.code).toBe(8);
    expect(s2.stdout).toMatch(/revoked/);

    await agent.stop();
    agent = await startAgent({ stateDir: agent.stateDir, cloudUrl: cloud.url, equipmentNo: MACHINE, serialPort: sim.port });
    await new Promise((res) => setTimeout(res, 1500));
    const after = await status();
    expect(after.enrolment.state).toBe('revoked');
    expect(after.cloud.lastAnswerAt).toBeNull();
    expect(agent.out()).not.toMatch(/"enrolled: the device key is stored"/);
    const fleet = await api<{ machines: { machineNo: string; state: string }[] }>(
      cloud.url,
      'GET',
      '/api/v1/machines/device-credentials/fleet?size=100',
      SANDBOX.admin,
    );
    expect(fleet.data.machines.find((m) => m.machineNo === MACHINE)?.state).toBe('revoked');
  }, 60_000);
});
