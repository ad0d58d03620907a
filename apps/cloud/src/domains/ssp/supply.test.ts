import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { HttpSupply } from './http-supply.ts';
import { InProcessSupply } from './in-process-supply.ts';
import type { MockSspService } from './mock-ssp.service.ts';
import { supplyFor } from './supply-factory.ts';
import { NoSupply, SupplyPopError, type SupplyLogger, type SupplyRequest } from './supply.ts';
import type { WireGetAdRequest, WireGetAdResponse } from './vistar-wire.ts';
import { PRODUCTION_ENV } from '../../config.test-support.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const REQ: SupplyRequest = { machineNo: 'SBX-ALICE-0001', maxFills: 2, slotSeconds: 15, screen: null, now: NOW };

class Logs implements SupplyLogger {
  readonly lines: { obj: Record<string, unknown>; msg: string }[] = [];
  warn(obj: Record<string, unknown>, msg: string): void {
    this.lines.push({ obj, msg });
  }
}

/** A stand-in for the mock SSP: records what it was asked, answers what the test says. */
function stubMock(opts: { getAd?: (req: WireGetAdRequest) => Promise<WireGetAdResponse>; pop?: (leaseId: string) => Promise<unknown> }) {
  const asked: WireGetAdRequest[] = [];
  const popped: string[] = [];
  const mock = {
    getAd: async (req: WireGetAdRequest, origin: string | null) => {
      asked.push(req);
      expect(origin).toBeNull();
      return opts.getAd ? opts.getAd(req) : { advertisement: [] };
    },
    pop: async (leaseId: string) => {
      popped.push(leaseId);
      return opts.pop ? opts.pop(leaseId) : {};
    },
  } as unknown as MockSspService;
  return { mock, asked, popped };
}

const wireAd = (leaseId: string) => ({
  lease_id: leaseId,
  display_area_id: 'slot-1',
  creative_id: 'mock-creative-1',
  advertiser: 'Sandbox Soda',
  asset_url: '/ssp/mock/creative/1.png',
  mime_type: 'image/png',
  width: 1080,
  height: 1920,
  length_in_seconds: 15,
  length_in_milliseconds: 15_000,
  proof_of_play_url: `/ssp/mock/pop/${leaseId}`,
  lease_expiry: Math.floor(NOW / 1000) + 3600,
  net_cpm: 12,
});

describe('InProcessSupply', () => {
  it('asks the mock with the sandbox credentials and maps its answer to fills with paths on this service', async () => {
    const { mock, asked } = stubMock({ getAd: async () => ({ advertisement: [wireAd('l-1'), wireAd('l-2'), wireAd('l-3')] }) });
    const supply = new InProcessSupply(mock, new Logs());
    const fills = await supply.fill(REQ);
    expect(asked[0]).toMatchObject({ network_id: 'sandbox-network', api_key: 'sandbox-ssp-key', device_id: 'SBX-ALICE-0001' });
    expect(asked[0]?.display_area).toHaveLength(2);
    expect(fills).toEqual([
      {
        leaseId: 'l-1',
        assetUrl: '/ssp/mock/creative/1.png',
        mediaType: 'image/png',
        popUrl: '/ssp/mock/pop/l-1',
        netCpmMillis: 12_000,
        expiresAt: NOW + 3_600_000,
        head: 'Sponsored · Sandbox Soda',
      },
      expect.objectContaining({ leaseId: 'l-2' }),
    ]);
    expect(supply.stats()).toMatchObject({ requests: 1, fills: 2, dropped: 1, failures: 0 });
  });

  it('asks nothing for no slots', async () => {
    const { mock, asked } = stubMock({});
    const supply = new InProcessSupply(mock, new Logs());
    expect(await supply.fill({ ...REQ, maxFills: 0 })).toEqual([]);
    expect(await supply.fill({ ...REQ, maxFills: Number.NaN })).toEqual([]);
    expect(asked).toHaveLength(0);
  });

  it('answers [] when the mock fails, and logs and counts why', async () => {
    const logs = new Logs();
    const { mock } = stubMock({ getAd: () => Promise.reject(new Error('database is locked')) });
    const supply = new InProcessSupply(mock, logs);
    expect(await supply.fill(REQ)).toEqual([]);
    expect(logs.lines[0]?.obj).toMatchObject({ provider: 'mock', machineNo: 'SBX-ALICE-0001', reason: 'mock SSP failed: database is locked' });
    expect(supply.stats()).toMatchObject({ failures: 1, lastError: 'mock SSP failed: database is locked', lastErrorAt: NOW });
  });

  it('refuses, without asking, a serial the wire format cannot carry', async () => {
    const { mock, asked } = stubMock({});
    const supply = new InProcessSupply(mock, new Logs());
    expect(await supply.fill({ ...REQ, machineNo: 'x'.repeat(300) })).toEqual([]);
    expect(asked).toHaveLength(0);
    expect(supply.stats().failures).toBe(1);
  });

  it('fires a PoP by lease; already popped is done, unknown or expired is a permanent refusal, anything else retryable', async () => {
    const outcomes: Record<string, () => Promise<unknown>> = {
      fresh: async () => ({}),
      again: () => Promise.reject(conflict('Lease already popped')),
      unknown: () => Promise.reject(notFound('Lease')),
      old: () => Promise.reject(new AppError('gone', 'Lease expired')),
      broken: () => Promise.reject(new Error('disk full')),
    };
    const { mock, popped } = stubMock({ pop: (id) => outcomes[id]!() });
    const supply = new InProcessSupply(mock, new Logs());
    await supply.firePop({ leaseId: 'fresh', popUrl: '/ssp/mock/pop/fresh' });
    await supply.firePop({ leaseId: 'again', popUrl: '/ssp/mock/pop/again' });
    await expect(supply.firePop({ leaseId: 'unknown', popUrl: '' })).rejects.toMatchObject({ name: 'SupplyPopError', permanent: true, status: 404 });
    await expect(supply.firePop({ leaseId: 'old', popUrl: '' })).rejects.toMatchObject({ permanent: true, status: 410 });
    await expect(supply.firePop({ leaseId: 'broken', popUrl: '' })).rejects.toMatchObject({ permanent: false });
    expect(popped).toEqual(['fresh', 'again', 'unknown', 'old', 'broken']);
  });
});

describe('NoSupply', () => {
  it('fills nothing and cannot fire a PoP', async () => {
    const none = new NoSupply();
    expect(none.name).toBe('none');
    expect(await none.fill()).toEqual([]);
    await expect(none.firePop({ leaseId: 'l', popUrl: 'https://x.example/pop' })).rejects.toBeInstanceOf(SupplyPopError);
  });
});

describe('supplyFor', () => {
  const { mock } = stubMock({});
  const logs = new Logs();
  const SSP = { SSP_URL: 'https://ssp.example/api/v1/', SSP_API_KEY: 'k', SSP_NETWORK_ID: 'n' };
  const PROD = PRODUCTION_ENV;

  it('picks the outside SSP when one is configured, in either mode', () => {
    for (const env of [SSP, { ...PROD, ...SSP }]) {
      const s = supplyFor(loadConfig(env), mock, logs);
      expect(s).toBeInstanceOf(HttpSupply);
      expect(s.name).toBe('vistar');
      expect((s as HttpSupply).endpoint).toBe('https://ssp.example/api/v1/get_ad/json');
    }
  });

  it('picks the built-in mock in the sandbox, and nothing in production without an SSP', () => {
    const sandbox = supplyFor(loadConfig({}), mock, logs);
    expect(sandbox).toBeInstanceOf(InProcessSupply);
    expect(sandbox.name).toBe('mock');
    expect(supplyFor(loadConfig({}), null, logs)).toBeInstanceOf(NoSupply);
    expect(supplyFor(loadConfig(PROD), mock, logs)).toBeInstanceOf(NoSupply);
  });
});
