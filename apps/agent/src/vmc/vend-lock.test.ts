import { describe, expect, it } from 'vitest';
import { VendLock } from './vend-lock.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const flush = () => new Promise((r) => setImmediate(r));

describe('vend lock', () => {
  it('runs one operation at a time, in arrival order', async () => {
    const lock = new VendLock();
    const log: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const ops = gates.map((g, i) =>
      lock.run(async () => {
        log.push(`start ${i}`);
        await g.promise;
        log.push(`end ${i}`);
      }),
    );
    await flush();
    expect(log).toEqual(['start 0']);
    expect(lock.isFree).toBe(false);
    expect(lock.waiting).toBe(2);
    gates[2]!.resolve();
    gates[1]!.resolve();
    await flush();
    expect(log).toEqual(['start 0']);
    gates[0]!.resolve();
    await Promise.all(ops);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    expect(lock.isFree).toBe(true);
  });

  it('lets a waiter give up through its AbortSignal without blocking the others', async () => {
    const lock = new VendLock();
    const gate = deferred();
    const first = lock.run(() => gate.promise);
    const ac = new AbortController();
    const ran: string[] = [];
    const second = lock.run(async () => void ran.push('second'), ac.signal);
    const third = lock.run(async () => void ran.push('third'));
    ac.abort(new Error('customer walked away'));
    await expect(second).rejects.toThrow('customer walked away');
    gate.resolve();
    await first;
    await third;
    expect(ran).toEqual(['third']);
    expect(lock.isFree).toBe(true);
  });

  it('refuses at once when already aborted, and frees the lock when an operation throws', async () => {
    const lock = new VendLock();
    await expect(lock.run(async () => 1, AbortSignal.abort())).rejects.toThrow();
    await expect(lock.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lock.isFree).toBe(true);
    expect(await lock.run(async () => 2)).toBe(2);
  });

  it('does not interrupt the operation holding the lock when its signal aborts', async () => {
    const lock = new VendLock();
    const ac = new AbortController();
    const gate = deferred();
    const op = lock.run(async () => {
      await gate.promise;
      return 'finished';
    }, ac.signal);
    await flush();
    ac.abort();
    gate.resolve();
    expect(await op).toBe('finished');
  });
});
