import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { ROOT, isolatedEnv } from './support/processes.ts';
import { SANDBOX, api, cleanup, tempDir, waitFor } from './support/cabinet-rig.ts';
import { checkedFetch, expectContract } from '@vend/cloud/testing/contract';

// README's demo (what `bash scripts/start` runs after set-up): the cloud plus two simulated
// cabinets with their agents, enrolled; it prints a curl that triggers a drop; SIGTERM stops it all.

const dir = tempDir('demo-e2e-');
afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`the demo${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('starts the cloud and two enrolled cabinets, prints a working curl for a drop, and stops every child on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      cwd: ROOT,
      env: isolatedEnv({ DATA_DIR: join(dir, 'data'), PORT: '0', DEMO_PORTS: 'auto', LOG_PRETTY: 'false' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const ready = await waitFor(
        () => {
          const line = out.split('\n').find((l) => l.startsWith('{"event":"demo-ready"'));
          return line
            ? (JSON.parse(line) as { cloud: string; cabinets: { machineNo: string; control: string; screen: string; boardControl: string }[] })
            : undefined;
        },
        120_000,
        `the demo to be ready:\n${out.slice(-3000)}`,
        200,
      );
      expect(ready.cabinets.map((c) => c.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002']);
      expect(out).toContain('SBX-ALICE-0001: enrolled');
      expect(out).toContain('SBX-ALICE-0002: enrolled');
      expect(out).toContain(`fleet secret        ${SANDBOX.fleetSecret}`);
      for (const c of ready.cabinets) {
        const token = readFileSync(join(dir, 'data', 'cabinets', c.machineNo, 'agent', 'control-token'), 'utf8').trim();
        expect(out).toContain(token);
        const st = (await (await fetch(`${c.control}/v1/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          enrolment: { state: string };
        };
        expect(st.enrolment.state).toBe('enrolled');
        // each kiosk's screen, at the address printed, with its storefront on
        expect(out).toContain(`screen ${c.screen}`);
        const page = await fetch(c.screen);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('screen.js');
        const screen = (await (await fetch(`${c.control}/v1/kiosk/screen`)).json()) as { features: Record<string, boolean> };
        expect(screen.features['htmlStorefront']).toBe(true);
      }
      // the printed curl, as printed
      const m = /curl -s -H 'X-API-Key: ([^']+)' -H 'content-type: application\/json' \\\n\s+-d '([^']+)' (\S+)/.exec(out);
      expect(m, 'a curl that triggers a drop').not.toBeNull();
      const [, key, body, url] = m!;
      // the demo's cloud: its answers held to the document it serves
      await expectContract(ready.cloud);
      const res = await checkedFetch(url!, { method: 'POST', headers: { 'x-api-key': key!, 'content-type': 'application/json' }, body: body! });
      const cmd = ((await res.json()) as { data: { commandId: string } }).data;
      expect(res.status).toBe(200);
      const done = await waitFor(
        async () => {
          const c = await api<{ status: string }>(ready.cloud, 'GET', `/api/v1/machines/SBX-ALICE-0001/commands/${cmd.commandId}`, SANDBOX.alice);
          return c.data.status === 'acknowledged' ? c.data : undefined;
        },
        30_000,
        'the demo drop to be acknowledged',
      );
      expect(done.status).toBe('acknowledged');
      const runs = (await (await fetch(`${ready.cabinets[0]!.boardControl}/motor-log`)).json()) as { aisle: number }[];
      expect(runs.map((r) => r.aisle)).toEqual([3]);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const u of [ready.cloud, ...ready.cabinets.map((c) => c.control), ...ready.cabinets.map((c) => c.boardControl)]) {
        await expect(fetch(u)).rejects.toThrow();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 180_000);
});
