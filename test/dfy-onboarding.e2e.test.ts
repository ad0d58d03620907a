import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { socatAvailable } from '@vend/firmware-sim';
import { SANDBOX, api, cleanup, startAgent, startCloud, startSim, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentProc, CloudProc, SimProc } from './support/cabinet-rig.ts';

// Done-for-you auto-onboarding end to end, as real processes: the cloud sandbox (its dfy-onboarding loop
// running on the real clock), a deal walked to install day through the operator API, then the cabinet
// shipped for it — `vmc-sim` on a pseudo-terminal and `vend-agent run` with the deal's serial — which enrols
// with the arm the install opened, registers and polls. The deal goes live only once the cloud has seen it
// online through the gateway; no row is written by the test.

const dir = tempDir('dfy-e2e-');
let cloud: CloudProc;
let sim: SimProc;
let agent: AgentProc;

type Deal = {
  id: string;
  stage: string;
  machineNo: string | null;
  openCheckpoints: { kind: string }[];
  onboarding: { terminal: string; planogram: boolean } | null;
};
const VENUE = { name: 'Pier 9 Food Hall', address: '9 Pier Rd, Brooklyn, NY', lat: 40.7003, lng: -73.9967 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

afterAll(async () => {
  await cleanup(dir);
});

describe.skipIf(!socatAvailable())(`done-for-you onboarding end to end${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('installing → live once the shipped cabinet enrols with the deal’s arm and is seen online; terminal bound, planogram loaded', async () => {
    cloud = await startCloud({ dataDir: join(dir, 'cloud') });
    const dfy = async <T = Deal>(method: string, path: string, body?: unknown): Promise<T> => {
      const r = await api<T>(cloud.url, method, `/api/v1/dfy${path}`, SANDBOX.alice, body);
      expect(r.status, `${method} ${path}: ${r.message}`).toBe(200);
      return r.data;
    };
    const d = await dfy('POST', '/deals', { tier: 'pro', hardwareVariant: 'agent' });
    await dfy('POST', `/deals/${d.id}/scout/accept`, { venue: VENUE });
    await dfy('POST', `/deals/${d.id}/negotiation/start`, { confirm: true, envelope: ENVELOPE });
    await dfy('POST', `/deals/${d.id}/negotiation/terms`, { revenueSharePct: 11, termMonths: 24, rounds: 3 });
    await dfy('POST', `/deals/${d.id}/negotiation/review`);
    await dfy('POST', `/deals/${d.id}/lease/send`, { confirm: true });
    await dfy('POST', `/deals/${d.id}/lease/signature`);
    const paid = await dfy('POST', `/deals/${d.id}/order/checkout`, { confirm: true });
    const serial = paid.machineNo!;
    expect(serial).toMatch(/^DFY-[0-9A-F]{10}$/);
    // autopilot ships it in the sandbox: the per-deal override turns it on for this deal
    await dfy('POST', `/deals/${d.id}/autopilot`, { enabled: true });
    const tick = await dfy<{ shipped: string[] }>('POST', '/autopilot/tick');
    expect(tick.shipped).toContain(d.id);
    const wo = await dfy<{ id: string }>('POST', `/deals/${d.id}/install/dispatch`, { confirm: true });
    for (const state of ['assigned', 'scheduled', 'en_route', 'on_site']) await dfy('POST', `/install/orders/${wo.id}`, { state });
    expect((await dfy('GET', `/deals/${d.id}`)).stage).toBe('installing');

    // before the cabinet speaks, the loop leaves the deal installing
    await new Promise((r) => setTimeout(r, 6000));
    expect((await dfy('GET', `/deals/${d.id}`)).stage).toBe('installing');

    sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--module', 'SH', '--seed', '3'] });
    agent = await startAgent({ stateDir: join(dir, 'agent'), cloudUrl: cloud.url, equipmentNo: serial, serialPort: sim.port });
    const live = await waitFor(
      async () => {
        const x = await dfy('GET', `/deals/${d.id}`);
        return x.stage === 'live' ? x : undefined;
      },
      45_000,
      'the deal to go live',
      500,
    );
    expect(live.onboarding).toEqual({ online: true, terminal: 'bound', planogram: true });
    expect(live.openCheckpoints).toEqual([]);

    // the cloud's own records of the cabinet: enrolled through the arm, online, bound, stocked
    const fleet = await api<{ machines: { machineNo: string; state: string }[] }>(
      cloud.url,
      'GET',
      '/api/v1/machines/device-credentials/fleet?size=100',
      SANDBOX.admin,
    );
    expect(fleet.data.machines.find((m) => m.machineNo === serial)?.state).toBe('enrolled');
    const m = await api<{
      status: string;
      lat: string;
      lng: string;
      paymentTerminal: { merchantAccount: string } | null;
      software: { agentVersion: string | null };
    }>(cloud.url, 'GET', `/api/v1/machines/${serial}`, SANDBOX.alice);
    expect(m.data.status).toBe('online');
    expect([Number(m.data.lat), Number(m.data.lng)]).toEqual([VENUE.lat, VENUE.lng]);
    expect(m.data.paymentTerminal?.merchantAccount).toBe('acct_op_sbx_alice');
    expect(m.data.software.agentVersion).not.toBeNull();
    const inv = await api<{ aisles: { aisleNo: number; currentStock: number; sellingPrice: number }[] }>(
      cloud.url,
      'GET',
      `/api/v1/inventory/machines/${serial}`,
      SANDBOX.alice,
    );
    expect(inv.data.aisles).toHaveLength(10);
    expect(inv.data.aisles.every((a) => a.currentStock > 0 && a.sellingPrice > 0)).toBe(true);
    const replay = await dfy<{ matchesStored: boolean }>('GET', `/deals/${d.id}/replay`);
    expect(replay.matchesStored).toBe(true);
    const portfolio = await dfy<{ machinesOwned: number; perMachineYield: { machineNo: string }[] }>('GET', '/portfolio');
    expect(portfolio.machinesOwned).toBe(1);
    expect(portfolio.perMachineYield.map((y) => y.machineNo)).toEqual([serial]);
    await agent.stop();
    await sim.stop();
  }, 150_000);
});
