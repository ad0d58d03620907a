import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { PrizeStateData } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import { MemoryPrizeStateStore, PrizeStateKeeper } from './prize-state.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
const T0 = Date.parse('2026-11-20T12:00:00Z');
const state = (budgetLeft: number | null): PrizeStateData => {
  const off = { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null };
  return {
    mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 3, winsLeftToday: 2, maxPrizeValue: 10 }, scratchCard: off, loyaltyStamp: off },
    period: '2026-11',
    budgetLeft,
  };
};

function rig(o: { store?: MemoryPrizeStateStore; answers?: (PrizeStateData | CloudError)[] } = {}) {
  const clock = new ManualClock(T0);
  const store = o.store ?? new MemoryPrizeStateStore();
  const calls: number[] = [];
  const answers = o.answers ?? [];
  const keeper = new PrizeStateKeeper({
    store,
    client: {
      prizeMechanics: async () => {
        calls.push(clock.now());
        const a = answers.shift() ?? state(1);
        if (a instanceof CloudError) throw a;
        return a;
      },
    },
    clock,
    random: () => 0,
    backoff: { baseMs: 1000, capMs: 8000 },
    log: quiet,
    refreshMs: 300_000,
  });
  const ac = new AbortController();
  return { clock, store, keeper, calls, start: () => void keeper.start(ac.signal), stop: () => ac.abort() };
}

describe('prize state kept for the kiosk', () => {
  it('none before the cloud answers; a state a delivery answered is written to disk and served', () => {
    const { keeper, store, clock } = rig();
    expect(keeper.view()).toEqual({ state: null, fetchedAt: null, ageSeconds: null, source: 'none' });
    keeper.accept(state(12.5));
    clock.advance(90_000);
    expect(store.stored).toEqual({ fetchedAt: T0, state: state(12.5) });
    expect(keeper.view()).toEqual({ state: state(12.5), fetchedAt: new Date(T0).toISOString(), ageSeconds: 90, source: 'cloud' });
  });

  it('after a restart the state on disk is served (source disk) until the cloud answers again', () => {
    const store = new MemoryPrizeStateStore({ fetchedAt: T0 - 60_000, state: state(3) });
    const { keeper } = rig({ store });
    expect(keeper.view()).toMatchObject({ state: state(3), ageSeconds: 60, source: 'disk' });
  });

  it('fetches at start and every refresh; a failed fetch keeps the last state and is retried with the backoff', async () => {
    const down = new CloudError('unreachable', 'prizeMechanics: ECONNREFUSED', null, null, true);
    const { keeper, clock, calls, start, stop } = rig({ answers: [state(7), down, state(6)] });
    start();
    await flush();
    expect(keeper.view()).toMatchObject({ state: state(7), source: 'cloud' });
    clock.advance(299_999);
    await flush();
    expect(calls).toHaveLength(1);
    clock.advance(1);
    await flush();
    expect(calls).toHaveLength(2);
    expect(keeper.view().state).toEqual(state(7));
    expect(keeper.lastError?.message).toMatch(/ECONNREFUSED/);
    clock.advance(500);
    await flush();
    expect(calls).toHaveLength(3);
    expect(keeper.view().state).toEqual(state(6));
    stop();
  });

  it('a disk that refuses the write still serves the new state from memory', () => {
    const store = new MemoryPrizeStateStore();
    store.write = () => {
      throw new Error('ENOSPC');
    };
    const { keeper } = rig({ store });
    keeper.accept(state(2));
    expect(keeper.view()).toMatchObject({ state: state(2), source: 'cloud' });
  });
});
