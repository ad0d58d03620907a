import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { MemoryNetworkBackend } from '../network/memory-backend.ts';
import { NetworkProvisioner } from '../network/provisioner.ts';
import { ServiceGate, hashCode } from '../service/index.ts';
import { startTestControl } from './control.test-support.ts';
import { networkControl } from './network-api.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-network-ctl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('control channel: network provisioning for the kiosk UI and the CLI', () => {
  it('a token only after the right service code; a switch only with a live token; one at a time', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    const hash = await hashCode('135790', Buffer.alloc(16, 1));
    const gate = new ServiceGate({ file: join(root, 'g.json'), clock, hash: () => ({ hash, source: 'cloud' }), log: () => {} });
    const backend = new MemoryNetworkBackend();
    backend.seed('Wired connection 1');
    backend.air.set('shop-wifi', 'correct horse');
    const network = new NetworkProvisioner({
      file: join(root, 'n.json'),
      backend,
      clock,
      random: (n) => Buffer.alloc(n, 9),
      reachable: () => Promise.resolve(false),
      log: { info: () => {}, warn: () => {} },
    });
    const server = await startTestControl({ network: networkControl(network, gate, clock) });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const wifi = { kind: 'wifi', ssid: 'shop-wifi', psk: 'correct horse' };
    try {
      expect(await call('POST', '/v1/network/token', { code: '000000' })).toMatchObject({
        status: 403,
        body: { error: 'wrong', message: expect.stringMatching(/4 more wrong codes lock/) },
      });
      expect(gate.status().unreported).toBe(1);
      const issued = await call('POST', '/v1/network/token', { code: '135790' });
      expect(issued).toMatchObject({ status: 200, body: { expiresAt: '2026-11-26T12:10:00.000Z' } });
      const token = issued.body['token'] as string;
      expect(await call('POST', '/v1/network', { token: 'np_nope', network: wifi })).toMatchObject({ status: 403, body: { error: 'token' } });
      expect((await call('POST', '/v1/network', { token, network: { kind: 'wifi', ssid: 'x', psk: 'short' } })).status).toBe(400);
      expect(await call('POST', '/v1/network', { token, network: wifi })).toMatchObject({ status: 200, body: { id: 'vend-1', label: 'wifi:shop-wifi' } });
      expect(await call('POST', '/v1/network', { token, network: wifi })).toMatchObject({ status: 409, body: { error: 'busy' } });
      const status = await call('GET', '/v1/network');
      expect(status.body).toMatchObject({ active: 'vend-1', switching: { target: 'vend-1', previous: 'Wired connection 1', phase: 'verifying' } });
    } finally {
      network.close();
      await server.close();
    }
  });
});
