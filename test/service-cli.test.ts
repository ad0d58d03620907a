import { scryptSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { ConfigBlock, FEATURE_DEFAULTS } from '@vend/protocol';
import { VEND_AGENT, VMC_SIM, run, start } from './support/processes.ts';
import type { Running } from './support/processes.ts';

// The technician at a cabinet with no cloud: `vend-agent service motor-test` behind the service code,
// straight over a pseudo-terminal to vmc-sim, with the hash the cloud delivered in the last
// configuration block (config-block.json) — and refused while a daemon holds the state directory.

const dir = mkdtempSync(join(tmpdir(), 'service-cli-'));
const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.stop();
  rmSync(dir, { recursive: true, force: true });
});

const CODE = '482913';
/** The form the cloud delivers (scrypt$N$r$p$salt$hash), minted here as the cloud does. */
function hashOf(code: string): string {
  const salt = Buffer.alloc(16, 3);
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${scryptSync(code, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url')}`;
}
let stateDir = '';
const env = (): NodeJS.ProcessEnv => ({ ...process.env, VEND_AGENT_STATE_DIR: stateDir, VEND_AGENT_CONFIG: join(dir, 'none.json') });

beforeAll(() => {
  stateDir = join(dir, 'state');
  writeFileSync(join(dir, 'none.json'), '{}\n');
  mkdirSync(stateDir, { mode: 0o700 });
  const block = {
    module: 'SH_YAxis',
    columnsPerRow: 10,
    rows: 6,
    pollInterval: 3,
    heartbeatInterval: 60,
    dispatchMode: 'both',
    features: { ...FEATURE_DEFAULTS },
    machineCode: 'SVC-TEST-0001',
    kioskUiUrl: '',
    adminPin: '',
    adminPinSource: 'derived',
    serviceCode: hashOf(CODE),
  };
  writeFileSync(join(stateDir, 'config-block.json'), JSON.stringify({ receivedAt: Date.now(), config: ConfigBlock.parse(block) }), { mode: 0o600 });
});

describe.skipIf(!socatAvailable())(`vend-agent service motor-test${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('vends one aisle with the right code and no cloud; a wrong code runs no motor; refused while a daemon holds the state directory', async () => {
    const link = join(dir, 'ttyS');
    const sim = await start(VMC_SIM, ['--link', link, '--control-port', '0', '--json']);
    running.push(sim);
    const state = async () => (await (await fetch(`${String(sim.ready.control)}/state`)).json()) as { counters: { motorRuns: number } };

    const wrong = await run(VEND_AGENT, ['service', 'motor-test', '--aisle', '7', '--port', link], 30_000, { input: '000000\n', env: env() });
    expect(wrong.code).toBe(10);
    expect(wrong.stderr).toMatch(/wrong service code: 4 more wrong codes lock/);
    expect((await state()).counters.motorRuns).toBe(0);

    const right = await run(VEND_AGENT, ['service', 'motor-test', '--aisle', '7', '--port', link], 30_000, { input: `${CODE}\n`, env: env() });
    expect(right.stderr).toBe('');
    expect(right.code).toBe(0);
    expect(right.stdout).toMatch(/motor test, aisle 7 on .*ttyS: VENDED \(motor ran: yes/);
    expect((await state()).counters.motorRuns).toBe(1);

    // a daemon on this state directory (here: its pid lock, held by a live process) — refused before the code is asked
    writeFileSync(join(stateDir, 'agent.pid'), `${sim.child.pid}\n`);
    const busy = await run(VEND_AGENT, ['service', 'motor-test', '--aisle', '7', '--port', link], 30_000, { input: `${CODE}\n`, env: env() });
    expect(busy.code).toBe(6);
    expect(busy.stderr).toMatch(/the agent daemon is running: it holds the serial port, the vend lock/);
    rmSync(join(stateDir, 'agent.pid'));
    expect((await state()).counters.motorRuns).toBe(1);

    // the attempts and the test are in the log, and wait for the next heartbeat
    const status = await run(VEND_AGENT, ['service', 'status', '--json'], 30_000, { env: env() });
    expect(JSON.parse(status.stdout)).toMatchObject({ codeSet: true, source: 'cloud', failures: 0, unreported: 2 });
    const log = readFileSync(join(stateDir, 'agent.log'), 'utf8');
    expect(log).toMatch(/service code attempt refused: wrong/);
    expect(log).toMatch(/"msg":"motor test"/);
    expect(log).not.toContain(CODE);
    expect(await sim.stop()).toBe(0);
  }, 120_000);
});

describe('the service code gates the other technician actions', () => {
  it('export-logs writes the log as a 0600 gzipped tar with the right code, and never overwrites', async () => {
    writeFileSync(join(stateDir, 'agent.log'), '{"msg":"hello from the cabinet"}\n', { flag: 'a' });
    const out = join(dir, 'logs.tgz');
    const r = await run(VEND_AGENT, ['service', 'export-logs', '--out', out], 30_000, { input: `${CODE}\n`, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(out);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    // a tar: the first header's name field, then the log's bytes
    const tarBytes = gunzipSync(readFileSync(out));
    expect(tarBytes.subarray(0, 9).toString()).toBe('agent.log');
    expect(tarBytes.toString()).toContain('hello from the cabinet');
    const again = await run(VEND_AGENT, ['service', 'export-logs', '--out', out], 30_000, { input: `${CODE}\n`, env: env() });
    expect(again.code).toBe(6);
  }, 120_000);

  it('five wrong codes lock them for 300 s, across processes; the lockout holds for the right code too', async () => {
    for (let i = 1; i <= 5; i++) {
      const r = await run(VEND_AGENT, ['service', 'export-logs', '--out', join(dir, `x${i}.tgz`)], 30_000, { input: '111111\n', env: env() });
      expect(r.code).toBe(10);
    }
    const locked = await run(VEND_AGENT, ['service', 'reset-enrolment'], 30_000, { input: `${CODE}\n`, env: env() });
    expect(locked.code).toBe(10);
    expect(locked.stderr).toMatch(/locked after 5 wrong codes: try again in \d+ s/);
    const status = await run(VEND_AGENT, ['service', 'status'], 30_000, { env: env() });
    expect(status.stdout).toMatch(/locked +until 20/);
  }, 120_000);
});
