import { describe, expect, it } from 'vitest';
import { QUIET, clock, host, manager, publish, settle, useInstallRoot } from './manager.test-support.ts';

useInstallRoot();

describe('the schedule', () => {
  it('checks 60 s after start, then every 21,600 s, and 180 s after a deferral', async () => {
    const m = manager();
    m.start();
    clock.advance(59_999);
    await settle(undefined, 3);
    expect(host.offersFetched).toBe(0);
    clock.advance(1);
    await settle(() => host.offersFetched === 1);
    expect(host.offersFetched).toBe(1);
    await settle(undefined, 5);
    clock.advance(21_599_999);
    await settle(undefined, 3);
    expect(host.offersFetched).toBe(1);
    clock.advance(1);
    await settle(() => host.offersFetched === 2);
    expect(host.offersFetched).toBe(2);
    // a deferral brings the next check forward
    host.offer = (await publish('1.0.1')).offer;
    host.quietState = { ...QUIET, secondsSinceActivity: 10 };
    clock.advance(21_600_000);
    await settle(() => host.deferral !== null);
    expect(host.deferral).toMatchObject({ version: '1.0.1' });
    await settle(undefined, 5);
    clock.advance(180_000);
    await settle(() => host.offersFetched === 4);
    expect(host.offersFetched).toBe(4);
    m.stop();
    clock.advance(10 * 21_600_000);
    await settle(undefined, 5);
    expect(host.offersFetched).toBe(4);
  });
});
