import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudClient, Enroller, MemoryCredentialStore, cloudTransport } from '@vend/agent';
import type { HttpRequest, HttpResponse } from '@vend/agent';
import { systemClock } from '@vend/protocol';
import { SANDBOX, api, cleanup, startCloud, tempDir } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';

// The witness token with overlapping calls, as the real cloud judges it (it accepts its last six
// tokens). The agent's loops overlap: here two calls go out together, the second's answer comes back
// first, seven more calls are made and answered, and only then does the first call's answer arrive.
// The next call must echo the last of the seven's token — echoing the first's (the answer that
// arrived last) is a superseded token, which the cloud records as a copy of the credential.

const dir = tempDir('agent-witness-');
const http = cloudTransport();
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
    // More calls, one after the other, while a's answer is still on its way: by the time it arrives
    // its token has been superseded more times than the cloud's window (6) holds.
    const LATER = 7;
    for (let i = 0; i < LATER; i++) {
      const c = client.pending();
      await chain;
      release[2 + i]!();
      await c;
    }
    release[0]!();
    await a; // a's answer arrives last
    holding = false;
    await client.pending();

    // delivered in the order b, c1..c7, a, then the next call d
    const tail = log.slice(-(LATER + 3));
    const [b1, ...rest] = tail;
    const d1 = rest.pop()!;
    const a1 = rest.pop()!;
    const lastC = rest.at(-1)!;
    expect(rest).toHaveLength(LATER);
    expect(a1.res.headers['x-device-witness']).toBeTruthy();
    expect(d1.req.headers['x-device-witness']).toBe(lastC.res.headers['x-device-witness']);
    expect(rest[0]!.req.headers['x-device-witness']).toBe(b1!.res.headers['x-device-witness']);
    const s = await api(cloud.url, 'GET', '/api/v1/machines/device-credentials/suspicions', SANDBOX.admin);
    expect(s.status).toBe(200);
    expect(JSON.stringify(s.data)).not.toContain(m);
  });
});
