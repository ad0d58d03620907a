import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { ServiceNotifier } from './notify.ts';

function capture() {
  const sent: string[][] = [];
  let hold: (() => void) | null = null;
  let holding = false;
  return {
    sent,
    send: (a: string[]) => {
      sent.push(a);
      return holding ? new Promise<void>((r) => (hold = r)) : Promise.resolve();
    },
    holdNext: () => (holding = true),
    release: () => {
      holding = false;
      hold?.();
    },
  };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('systemd notify: READY=1, WATCHDOG=1 from the event loop, STOPPING=1', () => {
  it('says ready, pings every third of WatchdogSec, and stops pinging when stopping', async () => {
    const clock = new ManualClock(0);
    const c = capture();
    const n = new ServiceNotifier({ socket: '/run/systemd/notify', watchdogUsec: 60_000_000, clock, send: c.send, pid: 42 });
    expect(n.watchdogMs).toBe(20_000);
    await n.ready('serving');
    expect(c.sent).toEqual([['READY=1', 'STATUS=serving', 'MAINPID=42']]);
    clock.advance(19_999);
    expect(c.sent).toHaveLength(1);
    clock.advance(1);
    await tick();
    clock.advance(20_000);
    await tick();
    expect(c.sent.slice(1)).toEqual([['WATCHDOG=1'], ['WATCHDOG=1']]);
    await n.stopping('stopping (SIGTERM)');
    clock.advance(120_000);
    expect(c.sent.slice(3)).toEqual([['STOPPING=1', 'STATUS=stopping (SIGTERM)']]);
  });

  it('skips a ping while the previous one is still out (a slow manager never piles up children)', async () => {
    const clock = new ManualClock(0);
    const c = capture();
    const n = new ServiceNotifier({ socket: '/s', watchdogUsec: 3_000_000, clock, send: c.send, pid: 1 });
    await n.ready('x');
    c.holdNext();
    clock.advance(1000);
    clock.advance(1000);
    clock.advance(1000);
    expect(c.sent.filter((a) => a[0] === 'WATCHDOG=1')).toHaveLength(1);
    c.release();
    await tick();
    clock.advance(1000);
    expect(c.sent.filter((a) => a[0] === 'WATCHDOG=1')).toHaveLength(2);
  });

  it('sends nothing without NOTIFY_SOCKET, and no pings for a watchdog meant for another pid', async () => {
    const clock = new ManualClock(0);
    const c = capture();
    const none = new ServiceNotifier({ watchdogUsec: 60_000_000, clock, send: c.send });
    await none.ready('x');
    clock.advance(600_000);
    expect(c.sent).toEqual([]);
    const other = new ServiceNotifier({ socket: '/s', watchdogUsec: 60_000_000, watchdogPid: 7, pid: 8, clock, send: c.send });
    expect(other.watchdogMs).toBeNull();
    await other.ready('x');
    clock.advance(600_000);
    expect(c.sent).toEqual([['READY=1', 'STATUS=x', 'MAINPID=8']]);
  });

  it('a failing send is reported, never thrown', async () => {
    const errors: string[] = [];
    const n = new ServiceNotifier({
      socket: '/s',
      clock: new ManualClock(0),
      send: () => Promise.reject(new Error('no systemd-notify')),
      onError: (e) => errors.push(e.message),
    });
    await n.ready('x');
    expect(errors).toEqual(['no systemd-notify']);
  });
});
