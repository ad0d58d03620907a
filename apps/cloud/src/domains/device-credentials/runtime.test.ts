import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { secretDigest } from './device-keys.ts';
import { DeviceRuntime, type CachedCredential } from './runtime.ts';

const cred = (machineId: string) => ({ machineId, keyId: 'dk_a', state: 'active' }) as CachedCredential;

function connected() {
  const runtime = new DeviceRuntime(new ManualClock(0));
  const published: string[] = [];
  const errors: unknown[] = [];
  let fail = false;
  runtime.connect({
    publish: async (machineId) => {
      if (fail) throw new Error('redis gone');
      published.push(machineId);
    },
    onError: (err) => errors.push(err),
  });
  runtime.cache.set('dk_a', secretDigest('s'), cred('m1'), runtime.cache.ticket());
  return { runtime, published, errors, failPublishes: () => (fail = true) };
}

describe('device runtime: cross-replica push of credential changes', () => {
  it('a local invalidation drops the machine here and publishes it to the other replicas', async () => {
    const { runtime, published } = connected();
    runtime.invalidate('m1');
    expect(runtime.cache.get('dk_a', secretDigest('s'))).toBeUndefined();
    await Promise.resolve();
    expect(published).toEqual(['m1']);
  });

  it('a message from another replica drops the machine here and is not published again (no echo between replicas)', async () => {
    const { runtime, published } = connected();
    runtime.forgetMachine('m1');
    expect(runtime.cache.get('dk_a', secretDigest('s'))).toBeUndefined();
    await Promise.resolve();
    expect(published).toEqual([]);
  });

  it('a failed publish is reported, never thrown: the local drop stands and the change feed covers the others', async () => {
    const { runtime, errors, failPublishes } = connected();
    failPublishes();
    expect(() => runtime.invalidate('m1')).not.toThrow();
    expect(runtime.cache.get('dk_a', secretDigest('s'))).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(errors.map((e) => (e as Error).message)).toEqual(['redis gone']);
  });
});
