import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_HELP, CloudClient, Enroller, MemoryCredentialStore, cloudTransport } from '@vend/agent';
import type { HttpRequest, HttpResponse } from '@vend/agent';
import { systemClock } from '@vend/protocol';
import { SANDBOX, api, cleanup, startCloud, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { checkedFetch } from '@vend/cloud/testing/contract';

// The agent's cloud client and enrolment against the real cloud (a process on a temp SQLite store):
// the statuses spec 2 §7 gives the agent, and the witness token as the cloud judges it.

const dir = tempDir('agent-cloud-');
const http = cloudTransport();
let cloud: CloudProc;
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

afterAll(async () => {
  await http.close();
  await cleanup(dir);
});

beforeAll(async () => {
  cloud = await startCloud({ dataDir: join(dir, 'cloud') });
}, 90_000);

/** A client for one cabinet with its own (memory) credential store, recording every exchange. */
function cabinet(machineNo: string, o: { fleetSecret?: string; store?: MemoryCredentialStore } = {}) {
  const store = o.store ?? new MemoryCredentialStore(null);
  const log: { req: HttpRequest; res: HttpResponse }[] = [];
  const client = new CloudClient({
    baseUrl: cloud.url,
    equipmentNo: machineNo,
    fleetSecret: o.fleetSecret ?? SANDBOX.fleetSecret,
    credentials: store,
    transport: async (req) => {
      const res = await http.transport(req);
      log.push({ req, res });
      return res;
    },
    clock: systemClock,
    random: Math.random,
    timeoutMs: 8000,
    backoff: { baseMs: 100, capMs: 1000 },
    log: quiet,
  });
  const conflicts: string[] = [];
  const enroller = new Enroller({
    client,
    credentials: store,
    deviceId: `gen-${machineNo.toLowerCase()}-box-0001`,
    clock: systemClock,
    random: Math.random,
    log: quiet,
    recordConflict: (m) => conflicts.push(m),
  });
  return { client, store, enroller, log, conflicts };
}

describe('agent cloud client ↔ cloud', () => {
  it('428 while nothing vouches for the cabinet, then enrolled once an admin arms it', async () => {
    const m = 'SBX-BOB-0001';
    expect((await api(cloud.url, 'POST', `/api/v1/machines/${m}/device-credential/disarm`, SANDBOX.admin)).status).toBe(200);
    const c = cabinet(m);
    expect(await c.enroller.attempt()).toMatchObject({ state: 'waiting-for-arm' });
    expect(c.store.current()).toBeNull();
    const arm = await api(cloud.url, 'POST', `/api/v1/machines/${m}/device-credential/arm`, SANDBOX.admin, { reason: 'e2e: technician on site' });
    expect(arm.status, arm.message).toBe(200);
    expect(await c.enroller.attempt()).toMatchObject({ state: 'enrolled' });
    expect(c.store.current()).toMatch(/^dk_[0-9a-f]{16}:[A-Za-z0-9_-]{43}$/);
    // from now on the device key, and the register / heartbeat legs work with it
    const cfg = await c.client.register({ agentVersion: '1.0.0', deviceId: `gen-${m.toLowerCase()}-box-0001` });
    expect(cfg.machineCode).toBe(m);
    await c.client.heartbeat({ agentVersion: '1.0.0' });
    const [enrol, ...rest] = c.log;
    expect(enrol!.req.headers['secret']).toBe(SANDBOX.fleetSecret);
    for (const x of rest.slice(1)) {
      expect(x.req.headers['secret']).toBeUndefined();
      expect(x.req.headers['x-device-key']).toBe(c.store.current());
    }
  });

  it('echoes exactly the last witness token it was handed, never one of its own, and the cloud records no copy suspicion', async () => {
    const c = cabinet('SBX-BOB-0002');
    expect(await c.enroller.attempt()).toMatchObject({ state: 'enrolled' });
    for (let i = 0; i < 5; i++) await c.client.pending();
    expect(c.log[0]!.req.headers['x-device-witness']).toBeUndefined();
    for (let i = 1; i < c.log.length; i++) {
      expect(c.log[i - 1]!.res.headers['x-device-witness']).toBeTruthy();
      expect(c.log[i]!.req.headers['x-device-witness']).toBe(c.log[i - 1]!.res.headers['x-device-witness']);
    }
    const s = await api<{ records?: { machineNo: string }[] } | { machineNo: string }[]>(
      cloud.url,
      'GET',
      '/api/v1/machines/device-credentials/suspicions',
      SANDBOX.admin,
    );
    expect(s.status).toBe(200);
    expect(JSON.stringify(s.data)).not.toContain('SBX-BOB-0002');
    // the check above can see a suspicion: an invented token (what the agent never does) is recorded
    const nonce = String(c.log[c.log.length - 1]!.res.headers['x-device-witness']).split('.')[0];
    const forged = await checkedFetch(cloud.url + '/cabinet/pending', {
      headers: { 'x-device-key': c.store.current()!, 'x-device-witness': `${nonce}.forged` },
    });
    expect(forged.status).toBe(200);
    const after = await api(cloud.url, 'GET', '/api/v1/machines/device-credentials/suspicions', SANDBOX.admin);
    expect(JSON.stringify(after.data)).toContain('SBX-BOB-0002');
  });

  it('409 when the cabinet is enrolled but this agent lost its state: reported with what the technician must do', async () => {
    const c = cabinet('SBX-BOB-0002'); // enrolled above; this store is empty, as after a lost state directory
    const s = await c.enroller.attempt();
    expect(s).toMatchObject({ state: 'conflict' });
    expect(c.conflicts[0]).toContain(CONFLICT_HELP);
    expect(c.store.current()).toBeNull();
  });

  it('a revoked cabinet: 403 is revocation, and the agent neither presents its key nor enrols again', async () => {
    const first = cabinet('SBX-ALICE-0003');
    expect(await first.enroller.attempt()).toMatchObject({ state: 'enrolled' });
    const r = await api(cloud.url, 'POST', '/api/v1/machines/SBX-ALICE-0003/device-credential/revoke', SANDBOX.admin, { by: 'qa', reason: 'stolen' });
    expect(r.status, r.message).toBe(200);
    await expect(first.client.pending()).rejects.toMatchObject({ kind: 'revoked', status: 403 });
    const calls = first.log.length;
    await expect(first.client.heartbeat({})).rejects.toMatchObject({ kind: 'revoked' });
    expect(await first.enroller.attempt()).toMatchObject({ state: 'revoked' });
    expect(first.log.length).toBe(calls);
    // and a fresh agent state on that cabinet is told 403 at enrolment
    const again = cabinet('SBX-ALICE-0003');
    expect(await again.enroller.attempt()).toMatchObject({ state: 'revoked' });
  });

  it('a wrong fleet secret is a failing enrolment (401), retried, not a revocation', async () => {
    const c = cabinet('SBX-POOL-0001', { fleetSecret: 'not-the-fleet-secret' });
    expect(await c.enroller.attempt()).toMatchObject({ state: 'failing', status: 401 });
    expect(c.store.isRevoked()).toBe(false);
  });
});
