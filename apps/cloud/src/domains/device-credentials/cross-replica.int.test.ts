import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeviceKey } from '@vend/protocol';
import type { Dialect } from '../../db/database.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { TEST_DATABASE_URL, call, startReplicas, type Replicas, type TestServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { ADMIN, enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import { secretDigest } from './device-keys.ts';

/**
 * Revocation and rotation across replicas (docs/decisions/scale-out.md): two replicas on one store and
 * one ManualClock. With a push transport the other replica refuses a revoked or retired key as soon as
 * the message lands, the clock standing still (so the change feed cannot be what did it). The feed's own
 * bound, for a push that was lost, is pinned in device-credentials.int.test.ts.
 */

const REDIS_URL = process.env['REDIS_URL'];
/** Real time allowed for a pub/sub or NOTIFY message to land; it takes milliseconds. */
const PUSH_WAIT_MS = 3_000;

const heartbeat = (t: TestServer, key: string) => call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { agentVersion: '1.5.0' } });

/** Whether the replica holds a verification of this exact key (the cache the gateway serves from). */
function cached(t: TestServer, key: string): boolean {
  const k = parseDeviceKey(key)!;
  return t.services.runtime.devices.cache.get(k.keyId, secretDigest(k.secret)) !== undefined;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + PUSH_WAIT_MS;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${PUSH_WAIT_MS} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const revoke = (t: TestServer, serial: string) =>
  expectStatus(call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'stolen' } }), 200);

interface PushCase {
  transport: 'redis' | 'postgres';
  dialect: Dialect;
  env: Record<string, string>;
}
const pushes: PushCase[] = [];
if (REDIS_URL) pushes.push({ transport: 'redis', dialect: 'sqlite', env: { REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } });
if (TEST_DATABASE_URL) pushes.push({ transport: 'postgres', dialect: 'postgres', env: {} });

describe.each(pushes)('credential changes pushed across replicas ($transport)', ({ transport, dialect, env }) => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas(dialect, env);
  });
  afterAll(async () => r.close());

  it('both replicas listen on the transport', () => {
    expect([r.a.services.runtime.credentialPush?.kind, r.a.services.runtime.credentialPush?.listening, r.b.services.runtime.credentialPush?.listening]).toEqual(
      [transport, true, true],
    );
  });

  it('a revocation on one replica is refused by the other at once, without the change feed', async () => {
    const cab = await enrolled(r.a);
    await expectStatus(heartbeat(r.b, cab.key), 200);
    expect(cached(r.b, cab.key)).toBe(true);
    await revoke(r.a, cab.serial);
    // The clock stands still: the change feed never looks again, only the push can drop b's verification.
    await until(() => !cached(r.b, cab.key), "b's cached verification to go");
    const refused = await heartbeat(r.b, cab.key);
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([403, 'Credential revoked']);
  });

  it('a rotation completed on one replica retires the old generation on the other at once', async () => {
    const cab = await enrolled(r.a);
    await expectStatus(call(r.a.url, 'POST', `/api/v1/machines/${cab.serial}/device-credential/rotate`, { headers: ADMIN }), 200);
    const minted = await expectStatus(heartbeat(r.a, cab.key), 200);
    const next = minted.headers.get('x-device-credential');
    expect(next).toBeTruthy();
    // b verifies the old generation while the rotation is under way (it stays valid until the new one is used)
    await expectStatus(heartbeat(r.b, cab.key), 200);
    expect(cached(r.b, cab.key)).toBe(true);
    await expectStatus(heartbeat(r.a, next!), 200); // first use of generation 2 retires generation 1
    await until(() => !cached(r.b, cab.key), "b's cached verification of generation 1 to go");
    const refused = await heartbeat(r.b, cab.key);
    expect(refused.status).toBe(401);
    expect((refused.body as { message: string }).message).toContain('Device key generation retired');
    await expectStatus(heartbeat(r.b, next!), 200);
  });
});

describe('API keys across replicas', () => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas('sqlite');
  });
  afterAll(async () => r.close());

  it('a revoked API key is refused by the other replica at once (API keys are read from the store on every call)', async () => {
    const me = (t: TestServer) => call(t.url, 'GET', '/api/v1/auth/me', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey } });
    await expectStatus(me(r.b), 200);
    const keyId = SANDBOX_CREDENTIALS.bob.apiKey.slice(3).split('.')[0]!;
    await r.database.db.updateTable('api_keys').set({ revoked_at: r.clock.now() }).where('id', '=', keyId).execute();
    expect((await me(r.b)).status).toBe(401);
  });
});
