import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle.ts';

/** Just what `track` uses of a response: its events and headers. */
function response(): ServerResponse & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return Object.assign(new EventEmitter(), { headers, setHeader: (k: string, v: string) => (headers[k] = v) }) as unknown as ServerResponse & {
    headers: Record<string, string>;
  };
}

describe('Lifecycle.track', () => {
  it('counts a response in flight until it finishes or closes, once whichever comes first or both', () => {
    const l = new Lifecycle();
    const a = response();
    const b = response();
    const c = response();
    l.track(a);
    l.track(b);
    l.track(c);
    expect(l.inFlight).toBe(3);
    a.emit('finish');
    a.emit('close');
    expect(l.inFlight).toBe(2);
    b.emit('close');
    b.emit('finish');
    expect(l.inFlight).toBe(1);
    c.emit('close');
    expect(l.inFlight).toBe(0);
  });

  it('counts a response tracked twice once', () => {
    const l = new Lifecycle();
    const a = response();
    l.track(a);
    l.track(a);
    expect(l.inFlight).toBe(1);
    a.emit('finish');
    a.emit('close');
    expect(l.inFlight).toBe(0);
  });

  it('keeps two lifecycles apart and closes keep-alive sockets while draining', () => {
    const one = new Lifecycle();
    const two = new Lifecycle();
    two.startDraining();
    const a = response();
    const b = response();
    one.track(a);
    two.track(b);
    expect(a.headers['connection']).toBeUndefined();
    expect(b.headers['connection']).toBe('close');
    a.emit('finish');
    expect([one.inFlight, two.inFlight]).toEqual([0, 1]);
    b.emit('close');
    expect([one.inFlight, two.inFlight]).toEqual([0, 0]);
  });
});
