import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudClient, Enroller, MemoryCredentialStore, undiciTransport } from '@vend/agent';
import type { HttpRequest, HttpResponse } from '@vend/agent';
import { systemClock } from '@vend/protocol';
import { SANDBOX, api, cleanup, startCloud, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';

// The witness token with overlapping calls, as the real cloud judges it (it accepts its last two
// tokens). The agent's loops overlap: here two calls go out together, the second's answer comes back
// first, a third call is made and answered, and only then does the first call's answer arrive. The
// next call must echo the third call's token — echoing the first's (the answer that arrived last)
// is a superseded token, which the cloud records as a copy of the credential.

const dir = tempDir('agent-witness-');
const http = undiciTransport();
let cloud: CloudProc;

afterAll(async () => {
  await http.close();
  await cleanup(dir);
});

beforeAll(async () => {
  cloud = await startCloud({ dataDir: join(dir, 'cloud') });
}, 90_000);

describe('witness token ↔ cloud, answers out of order', () => {
  it('echoes the newest token, and the cloud records no copy suspicion', async () => {
    const m = 'SBX-BOB-0002';
    const store = new MemoryCredentialStore(null);
    const log: { req: HttpRequest; res: HttpResponse }[] = [];
    // The cloud takes requests in the order sent (one after the other); each answer is handed to
    // the client only when the test releases it.
    let chain: Promise<unknown> = Promise.resolve();
    const release: (() => void)[] = [];
    let holding = false;
    const client = new CloudClient({
      baseUrl: cloud.url,
      equipmentNo: m,
      fleetSecret: SANDBOX.fleetSecret,
      credentials: store,
      transport: async (req) => {
        const real = chain.then(() => http.transport(req));
        chain = real.catch(() => {});
        const gate = holding ? new Promise<void>((r) => release.push(r)) : Promise.resolve();
        const [res] = await Promise.all([real, gate]);
        log.push({ req, res });
        return res;
      },
      clock: systemClock,
      random: Math.random,
      timeoutMs: 8000,
      backoff: { baseMs: 100, capMs: 1000 },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    const enroller = new Enroller({
      client,
      credentials: store,
      deviceId: 'gen-sbx-bob-0002-box-0001',
      clock: systemClock,
      random: Math.random,
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      recordConflict: () => {},
    });
    expect(await enroller.attempt()).toMatchObject({ state: 'enrolled' });
    await client.pending();

    holding = true;
    const a = client.pending(); // sent 1st
    const b = client.pending(); // sent 2nd
    await chain; // the cloud has answered both (a, then b)
    release[1]!();
    await b; // b's answer arrives first
    const c = client.pending(); // sent 3rd, with b's token
    await chain;
    release[2]!();
    await c;
    release[0]!();
    await a; // a's answer arrives last: its token is already superseded twice
    holding = false;
    await client.pending();

    // delivered in the order b, c, a, then the next call d
    const [b1, c1, a1, d1] = log.slice(-4);
    expect(a1!.res.headers['x-device-witness']).toBeTruthy();
    expect(d1!.req.headers['x-device-witness']).toBe(c1!.res.headers['x-device-witness']);
    expect(c1!.req.headers['x-device-witness']).toBe(b1!.res.headers['x-device-witness']);
    const s = await api(cloud.url, 'GET', '/api/v1/machines/device-credentials/suspicions', SANDBOX.admin);
    expect(s.status).toBe(200);
    expect(JSON.stringify(s.data)).not.toContain(m);
  });
});
