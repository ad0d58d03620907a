import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { SANDBOX, api, cleanup, control, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc } from './support/cabinet-rig.ts';
import { VEND_AGENT, run } from './support/processes.ts';

// The technician on site, against a real rig (cloud sandbox, vmc-sim on a pseudo-terminal, `vend-agent
// run`): `vend-agent doctor` on a healthy and on a broken cabinet, and the service code from the
// operator's PUT to the cabinet's lockout and back to the cloud in the heartbeat.

const MACHINE = 'SBX-ALICE-0001';
const dir = tempDir('agent-field-');
let cloud: CloudProc;
let agent: AgentProc;
let token = '';
let boardPort = '';

interface Doctor {
  ok: boolean;
  checks: { check: string; verdict: 'ok' | 'warn' | 'fail' | 'skip'; detail: string; fix?: string }[];
}
const verdicts = (d: Doctor): Record<string, string> => Object.fromEntries(d.checks.map((c) => [c.check, c.verdict]));

afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`the technician on site${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  beforeAll(async () => {
    cloud = await startCloud({ dataDir: join(dir, 'cloud') });
    const s = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, { heartbeatInterval: 10 });
    expect(s.status, s.message).toBe(200);
    const sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--seed', '3'] });
    boardPort = sim.port;
    agent = await startAgent({
      stateDir: join(dir, 'agent'),
      cloudUrl: cloud.url,
      equipmentNo: MACHINE,
      serialPort: sim.port,
      env: { VEND_AGENT_CONFIG_REFRESH_SECONDS: '10', VEND_AGENT_INSTALL_ROOT: join(dir, 'no-install-root') },
    });
    token = readFileSync(join(agent.stateDir, 'control-token'), 'utf8').trim();
    await waitFor(
      async () => {
        const st = (
          await control<{ enrolment: { state: string }; board: { state: string }; cloud: { registeredAt: string | null } }>(agent, 'GET', '/v1/status', token)
        ).body;
        return st.enrolment.state === 'enrolled' && st.board.state === 'ok' && st.cloud.registeredAt !== null;
      },
      60_000,
      'the agent enrolled, registered and talking to the board',
    );
  }, 180_000);

  it('doctor on a healthy cabinet: every line ok (or skipped where there is nothing to check), exit 0', async () => {
    const r = await run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, 'doctor', '--json'], 60_000, {
      env: {
        ...process.env,
        VEND_AGENT_CLOUD_URL: cloud.url,
        VEND_AGENT_EQUIPMENT_NO: MACHINE,
        VEND_AGENT_SERIAL_PORT: boardPort,
        VEND_AGENT_INSTALL_ROOT: join(dir, 'none'),
      },
    });
    const d = JSON.parse(r.stdout) as Doctor;
    expect(
      d.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn'),
      r.stdout,
    ).toEqual([]);
    expect(r.code).toBe(0);
    expect(verdicts(d)).toMatchObject({
      configuration: 'ok',
      'state directory': 'ok',
      'agent daemon': 'ok',
      'serial port': 'ok',
      board: 'ok',
      cloud: 'ok',
      clock: 'ok',
      credential: 'ok',
      network: 'ok',
    });
    const human = await run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, 'doctor'], 60_000, {
      env: { ...process.env, VEND_AGENT_CLOUD_URL: cloud.url, VEND_AGENT_EQUIPMENT_NO: MACHINE, VEND_AGENT_SERIAL_PORT: boardPort },
    });
    expect(human.stdout).toMatch(/✓ board +OK +answers \(firmware/);
    expect(human.stdout).toMatch(/verdict: OK/);
  }, 120_000);

  it('doctor on a broken cabinet: each problem on its own line with its fix, exit 4, no crash', async () => {
    const r = await run(VEND_AGENT, ['--state-dir', join(dir, 'fresh-state'), '--control-port', '1', 'doctor', '--json'], 60_000, {
      env: {
        ...process.env,
        VEND_AGENT_CLOUD_URL: 'http://127.0.0.1:1',
        VEND_AGENT_EQUIPMENT_NO: MACHINE,
        VEND_AGENT_SERIAL_PORT: join(dir, 'no-such-port'),
        PATH: '/nonexistent', // no udevadm: listing serial ports fails, the doctor carries on
      },
    });
    expect(r.code, r.stderr).toBe(4);
    const d = JSON.parse(r.stdout) as Doctor;
    expect(verdicts(d)).toMatchObject({ 'agent daemon': 'fail', 'serial port': 'fail', cloud: 'fail', credential: 'warn' });
    for (const c of d.checks.filter((x) => x.verdict === 'fail')) expect(c.fix, c.check).toBeTruthy();
    expect(d.checks.find((c) => c.check === 'serial port')!.detail).toMatch(/no-such-port does not exist/);
    expect(d.checks.find((c) => c.check === 'cloud')!.detail).toMatch(/ECONNREFUSED/);
  }, 120_000);

  it('service code: set by the operator, checked by the cabinet offline, attempts back in the cloud through the heartbeat', async () => {
    const put = await api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/service-code`, SANDBOX.alice, { code: '731946' });
    expect(put.status, put.message).toBe(200);
    // the next configuration refresh brings the hash
    await waitFor(
      async () => (await control<{ codeSet: boolean }>(agent, 'GET', '/v1/service', token)).body.codeSet,
      40_000,
      'the cabinet received the service code hash',
    );
    const block = JSON.parse(readFileSync(join(agent.stateDir, 'config-block.json'), 'utf8')) as { config: { serviceCode: string } };
    expect(block.config.serviceCode).toMatch(/^scrypt\$/);
    expect(readFileSync(join(agent.stateDir, 'config-block.json'), 'utf8')).not.toContain('731946');

    expect((await control(agent, 'POST', '/v1/service/check', token, { code: '000000', action: 'motor-test' })).status).toBe(403);
    expect((await control(agent, 'POST', '/v1/service/check', token, { code: '731946', action: 'motor-test' })).status).toBe(200);
    const seen = await waitFor(
      async () => {
        const v = await api<{ attempts: { result: string; source: string }[] }>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/service-code`, SANDBOX.alice);
        return v.data.attempts.length >= 2 ? v.data : undefined;
      },
      40_000,
      'the heartbeat carried the attempts to the cloud',
    );
    expect(seen.attempts.map((a) => [a.result, a.source])).toEqual([
      ['ok', 'control'],
      ['wrong', 'control'],
    ]);
  }, 120_000);

  it('network: the CLI asks the daemon for a token behind the service code, and a switch needs a live one', async () => {
    const cli = (args: string[], input?: string) =>
      run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, 'network', ...args], 30_000, {
        ...(input === undefined ? {} : { input }),
      });
    const wrong = await cli(['token'], '000000\n');
    expect(wrong.code, wrong.stderr).toBe(10);
    expect(wrong.stderr).toMatch(/wrong service code: \d more wrong codes? lock/);
    const right = await cli(['token'], '731946\n');
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toMatch(/^np_[A-Za-z0-9_-]{32}\nvalid until /);
    // a made-up token switches nothing (and where NetworkManager is missing, nothing could): refused, exit 6
    const bogus = await cli(['set', '--wifi', 'shop-wifi', '--open', '--token', 'np_made-up']);
    expect(bogus.code, bogus.stderr).toBe(6);
    expect(bogus.stderr).toMatch(/refused: the (provisioning token is unknown|network stack does not answer)/);
    const status = await cli(['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ switching: null, remembered: [], last: null });
  }, 60_000);
});
