import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { NetworkRequest } from '@vend/protocol';
import { MemoryNetworkBackend } from './memory-backend.ts';
import { NetworkProvisioner, NetworkRefused } from './provisioner.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-network-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const HOME: NetworkRequest = { kind: 'wifi', ssid: 'shop-wifi', psk: 'correct horse' };

/** A cabinet on its OS-made wired connection, with the shop's Wi-Fi in range; `online` says which connections reach the cloud. */
function rig(file = join(root, `n${n++}.json`), backend = new MemoryNetworkBackend(), clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'))) {
  if (backend.current === null && backend.profiles.size === 0) backend.seed('Wired connection 1');
  backend.air.set('shop-wifi', 'correct horse');
  const online = new Set(['Wired connection 1']);
  const probes: number[] = [];
  let seed = 0;
  const provisioner = new NetworkProvisioner({
    file,
    backend,
    clock,
    random: (bytes) => Buffer.alloc(bytes, ++seed),
    reachable: () => {
      probes.push(clock.now());
      if (backend.current === null) return Promise.resolve(false);
      const profile = backend.profiles.get(backend.current);
      return Promise.resolve(online.has(backend.current) || (profile?.kind === 'wifi' && online.has(profile.ssid)));
    },
    log: { info: () => undefined, warn: () => undefined },
  });
  return { file, backend, clock, online, probes, provisioner };
}

/** Lets the clock run `ms` in small steps, the provisioner's promises settling between them (no real sleeping). */
async function run(clock: ManualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 250) {
    clock.advance(Math.min(250, ms - t));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  }
}

describe('network provisioning (spec 2 §8: verify 90 s, token 600 s, poll 3 s, 5 remembered)', () => {
  it('happy path: the new network reaches the cloud, is kept, and the token served once', async () => {
    const { backend, clock, online, probes, provisioner } = rig();
    online.add('shop-wifi');
    const { token } = provisioner.issueToken();
    const started = await provisioner.apply(token, HOME);
    await run(clock, 1000);
    expect(await started.done).toMatchObject({ outcome: 'connected', label: 'wifi:shop-wifi' });
    expect(backend.current).toBe(started.id);
    const status = await provisioner.status();
    expect(status).toMatchObject({ active: started.id, switching: null, remembered: [{ id: started.id, label: 'wifi:shop-wifi' }] });
    expect(probes).toHaveLength(1);
    await expect(provisioner.apply(token, HOME)).rejects.toMatchObject({ code: 'token' });
  });

  it('polls every 3 s until the cloud answers', async () => {
    const { clock, online, probes, provisioner } = rig();
    const started = await provisioner.apply(provisioner.issueToken().token, HOME);
    await run(clock, 7000);
    online.add('shop-wifi');
    await run(clock, 3000);
    expect(await started.done).toMatchObject({ outcome: 'connected' });
    expect(probes.map((p) => p - probes[0]!)).toEqual([0, 3000, 6000, 9000]);
  });

  it('a wrong PSK goes back to the previous connection within 90 s, and the new profile is deleted', async () => {
    const { backend, clock, provisioner, file } = rig();
    const begin = clock.now();
    const started = await provisioner.apply(provisioner.issueToken().token, { ...HOME, psk: 'wrong horse' });
    await run(clock, 500);
    const outcome = await started.done;
    expect(outcome).toMatchObject({ outcome: 'reverted' });
    expect(outcome.at - begin).toBeLessThan(90_000);
    expect(backend.current).toBe('Wired connection 1');
    expect(backend.profiles.has(started.id)).toBe(false);
    expect((await provisioner.status()).remembered).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a network that comes up but never reaches the cloud goes back at 90 s, not before', async () => {
    const { backend, clock, probes, provisioner } = rig();
    const begin = clock.now();
    const started = await provisioner.apply(provisioner.issueToken().token, HOME);
    let settled = false;
    void started.done.then(() => (settled = true));
    await run(clock, 89_000);
    expect(settled).toBe(false);
    expect(backend.current).toBe(started.id);
    await run(clock, 1500);
    expect(await started.done).toMatchObject({ outcome: 'reverted', at: begin + 90_000 });
    expect(backend.current).toBe('Wired connection 1');
    expect(probes.length).toBe(31);
  });

  it('a probe still hanging at 90 s does not hold the revert back', async () => {
    const { backend, clock, provisioner, file } = rig();
    const hanging = new NetworkProvisioner({
      file,
      backend,
      clock,
      random: (bytes) => Buffer.alloc(bytes, 1),
      reachable: () => new Promise<boolean>(() => undefined),
      log: { info: () => undefined, warn: () => undefined },
    });
    const begin = clock.now();
    const started = await hanging.apply(hanging.issueToken().token, HOME);
    await run(clock, 91_000);
    expect(await started.done).toMatchObject({ outcome: 'reverted', at: begin + 90_000 });
    expect(backend.current).toBe('Wired connection 1');
    expect((await provisioner.status()).last).toMatchObject({ outcome: 'reverted' });
  });

  it('a backend failing while going back leaves the switch in the journal for the next start, and nothing unhandled', async () => {
    const { backend, clock, provisioner, file } = rig();
    const started = await provisioner.apply(provisioner.issueToken().token, { ...HOME, psk: 'wrong horse' });
    const remove = backend.remove.bind(backend);
    backend.remove = () => Promise.reject(new Error('NetworkManager is not running'));
    await run(clock, 500);
    expect(await started.done).toMatchObject({ outcome: 'interrupted', reason: expect.stringMatching(/NetworkManager is not running/) });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ switch: { phase: 'reverting', target: started.id } });
    // the unfinished switch is not overwritten by a new one (nor the token spent)
    const token = provisioner.issueToken().token;
    await expect(provisioner.apply(token, HOME)).rejects.toMatchObject({ code: 'busy' });
    backend.remove = remove;
    expect(await provisioner.recover()).toMatchObject({ outcome: 'interrupted' });
    expect(backend.profiles.has(started.id)).toBe(false);
    expect(backend.current).toBe('Wired connection 1');
    expect((await (await provisioner.apply(token, { ...HOME, psk: 'wrong horse' })).done).outcome).toBe('reverted');
  });

  it('a reboot mid-switch lands on the previous connection: the journal says what was under way', async () => {
    const first = rig();
    const started = await first.provisioner.apply(first.provisioner.issueToken().token, HOME);
    await run(first.clock, 4000);
    expect(JSON.parse(readFileSync(first.file, 'utf8'))).toMatchObject({ switch: { phase: 'verifying', target: started.id, previous: 'Wired connection 1' } });
    first.provisioner.close();
    // NetworkManager kept the new profile and autoconnects to it after the reboot
    const again = rig(first.file, first.backend, first.clock);
    expect(first.backend.current).toBe(started.id);
    expect(await again.provisioner.recover()).toMatchObject({ outcome: 'interrupted' });
    expect(first.backend.current).toBe('Wired connection 1');
    expect(first.backend.profiles.has(started.id)).toBe(false);
    expect(await again.provisioner.status()).toMatchObject({ switching: null, remembered: [], last: { outcome: 'interrupted' } });
    expect(await again.provisioner.recover()).toBeNull();
  });

  it('a sixth network forgets the oldest; the same SSID again replaces its older profile', async () => {
    const { backend, clock, online, provisioner } = rig();
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) {
      backend.air.set(`net-${i}`, undefined);
      online.add(`net-${i}`);
      const started = await provisioner.apply(provisioner.issueToken().token, { kind: 'wifi', ssid: `net-${i}` });
      await run(clock, 250);
      expect(await started.done).toMatchObject({ outcome: 'connected' });
      ids.push(started.id);
    }
    const kept = (await provisioner.status()).remembered.map((r) => r.label);
    expect(kept).toEqual(['wifi:net-2', 'wifi:net-3', 'wifi:net-4', 'wifi:net-5', 'wifi:net-6']);
    expect(backend.profiles.has(ids[0]!)).toBe(false);
    expect(backend.profiles.has('Wired connection 1')).toBe(true);
    const again = await provisioner.apply(provisioner.issueToken().token, { kind: 'wifi', ssid: 'net-3' });
    await run(clock, 250);
    await again.done;
    expect((await provisioner.status()).remembered.map((r) => r.id)).toEqual([ids[1], ids[3], ids[4], ids[5], again.id]);
    expect(backend.profiles.has(ids[2]!)).toBe(false);
  });

  it('a token lasts 600 s: valid just before, refused after, and one switch at a time', async () => {
    const { clock, online, provisioner, file } = rig();
    const early = provisioner.issueToken();
    const late = provisioner.issueToken();
    expect(Date.parse(early.expiresAt) - clock.now()).toBe(600_000);
    await run(clock, 599_000);
    const started = await provisioner.apply(early.token, HOME);
    await expect(provisioner.apply(late.token, HOME)).rejects.toBeInstanceOf(NetworkRefused);
    await expect(provisioner.apply(late.token, HOME)).rejects.toMatchObject({ code: 'busy' });
    online.add('shop-wifi');
    await run(clock, 3000);
    await started.done;
    await expect(provisioner.apply(late.token, HOME)).rejects.toMatchObject({ code: 'token' });
    await expect(provisioner.apply('np_guessed', HOME)).rejects.toMatchObject({ code: 'token' });
    // the journal holds digests only
    expect(readFileSync(file, 'utf8')).not.toContain(late.token.slice(3));
  });
});
