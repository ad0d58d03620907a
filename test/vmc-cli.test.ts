import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { VEND_AGENT, VMC_SIM, run, start } from './support/processes.ts';
import type { Running } from './support/processes.ts';

// `vmc-sim` and `vend-agent vmc test` run by hand against each other, as a QA engineer would.

const dir = mkdtempSync(join(tmpdir(), 'vmc-cli-'));
const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('vmc-sim command line', () => {
  it('--help documents the flags, every fault, the control port and the scenario format', async () => {
    const r = await run(VMC_SIM, ['--help']);
    expect(r.code).toBe(0);
    for (const word of [
      '--module',
      '--rows',
      '--columns',
      '--device',
      '--link',
      '--scenario',
      '--control-port',
      '--jam',
      '--empty',
      '--drop-acks',
      '--delay-acks',
      '--corrupt',
      '--withhold-results',
    ]) {
      expect(r.stdout).toContain(word);
    }
    for (const action of [
      '"jam"',
      '"empty"',
      '"dropAcks"',
      '"delayAcks"',
      '"corrupt"',
      '"withholdResults"',
      '"unplug"',
      '"replug"',
      '"reboot"',
      'POST /actions',
      'GET  /state',
      'afterDispenses',
      'Exit codes',
    ]) {
      expect(r.stdout).toContain(action);
    }
  });

  it('refuses bad flags and bad scenarios with exit 64, naming every problem', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ board: { rows: 99 }, steps: [{ at: 5, do: 'explode' }] }));
    const never = join(dir, 'never');
    const [rows, module, aisle, scenario] = await Promise.all([
      run(VMC_SIM, ['--rows', '0']),
      run(VMC_SIM, ['--module', 'XYZ']),
      run(VMC_SIM, ['--jam', '99', '--link', never]),
      run(VMC_SIM, ['--scenario', bad, '--link', never]),
    ]);
    expect([rows.code, module.code, aisle.code, scenario.code]).toEqual([64, 64, 64, 64]);
    expect(rows.stderr).toMatch(/--rows must be an integer 1\.\.32/);
    expect(aisle.stderr).toMatch(/aisle 99 is outside this machine \(1\.\.60\)/);
    expect(scenario.stderr).toMatch(/board\.rows/);
    expect(scenario.stderr).toMatch(/steps\.0: unknown action "explode"/);
    expect(existsSync(never)).toBe(false);
  });
});

describe.skipIf(!socatAvailable())(`vmc-sim ↔ vend-agent vmc test${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('self-check reports faults set by flag, by scenario and live; exit codes follow', async () => {
    const scenario = join(dir, 'scenario.json');
    writeFileSync(
      scenario,
      JSON.stringify({ board: { module: 'SH', rows: 4, columnsPerRow: 5, vmcVersion: '7.1.3' }, steps: [{ at: 0, do: 'jam', aisle: 3 }] }),
    );
    const link = join(dir, 'ttyA');
    const sim = await start(VMC_SIM, ['--link', link, '--control-port', '0', '--json', '--scenario', scenario, '--jam', '20']);
    running.push(sim);
    expect(sim.ready).toMatchObject({ event: 'ready', port: link, module: 'SH', rows: 4, columnsPerRow: 5 });

    const first = await run(VEND_AGENT, ['vmc', 'test', '--port', link, '--json']);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      ok: false,
      info: { vmcVersion: '7.1.3', module: 'SH', rows: 4, columnsPerRow: 5 },
      lanes: { count: 20, jammed: [3, 20], withoutMotor: [] },
      dropSensor: { healthy: true },
    });

    // live control: clear the jams
    const control = String(sim.ready.control);
    const res = await fetch(`${control}/actions`, {
      method: 'POST',
      body: JSON.stringify([
        { do: 'unjam', aisle: 3 },
        { do: 'unjam', aisle: 20 },
      ]),
    });
    expect(res.status).toBe(200);
    const second = await run(VEND_AGENT, ['vmc', 'test', '--port', link]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/board info +firmware 7\.1\.3, module SH, 4 rows × 5 columns/);
    expect(second.stdout).toMatch(/result: OK/);
    // progress while the lane scan runs, on stderr (20 lanes: one page); none with --json
    expect(second.stderr).toMatch(/^lane scan: page 1 of 1$/m);
    expect(first.stderr).not.toMatch(/lane scan/);

    // a blind drop sensor is a fault too
    await fetch(`${control}/actions`, { method: 'POST', body: JSON.stringify({ do: 'dropSensor', healthy: false }) });
    const third = await run(VEND_AGENT, ['vmc', 'test', '--port', link]);
    expect(third.code).toBe(1);
    expect(third.stdout).toMatch(/drop sensor +UNHEALTHY/);

    // stopping the simulator removes the port and its socat
    expect(await sim.stop()).toBe(0);
    expect(existsSync(link)).toBe(false);
  });

  it('an unplugged board: the agent retries the open, then exits 2 with the reason', async () => {
    const link = join(dir, 'ttyB');
    const sim = await start(VMC_SIM, ['--link', link, '--control-port', '0', '--json']);
    running.push(sim);
    await fetch(`${String(sim.ready.control)}/actions`, { method: 'POST', body: JSON.stringify({ do: 'unplug' }) });
    const r = await run(VEND_AGENT, ['vmc', 'test', '--port', link, '--open-attempts', '2']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/could not open .*ttyB after 2 attempts/);
    expect(r.stdout).toMatch(/BOARD NOT REACHABLE/);
    // re-plug: it answers again
    await fetch(`${String(sim.ready.control)}/actions`, { method: 'POST', body: JSON.stringify({ do: 'replug' }) });
    expect((await run(VEND_AGENT, ['vmc', 'test', '--port', link])).code).toBe(0);
    expect(await sim.stop()).toBe(0);
  });
});
