import { describe, expect, it } from 'vitest';
import { ManualClock, vmcWireTimeMs } from '@vend/protocol';
import { WirePacer } from './wire.ts';
import type { PaceMode } from './wire.ts';

const BYTE_MS = vmcWireTimeMs(1); // 1.0417 ms at 9600 8N1

function rig(mode: PaceMode) {
  const clock = new ManualClock(1000);
  const got: { at: number; bytes: number[] }[] = [];
  const wire = new WirePacer(clock, (c) => got.push({ at: clock.now(), bytes: Array.from(c) }), mode);
  const total = (): number[] => got.flatMap((g) => g.bytes);
  return { clock, wire, got, total };
}

describe('wire pacing at 9600 8N1', () => {
  it('byte mode: no byte leaves before its 10 bits would have finished', () => {
    const r = rig('byte');
    const frame = Array.from({ length: 16 }, (_, i) => i);
    r.wire.write(Uint8Array.from(frame));
    expect(r.total()).toEqual([]);
    for (let ms = 0; ms < 40; ms++) r.clock.advance(1);
    expect(r.total()).toEqual(frame);
    let sent = 0;
    for (const g of r.got) {
      sent += g.bytes.length;
      expect(g.at - 1000 + 1e-9).toBeGreaterThanOrEqual(sent * BYTE_MS);
    }
    expect(r.got.at(-1)!.at - 1000).toBeLessThanOrEqual(Math.ceil(16 * BYTE_MS) + 1);
    expect(r.got.length).toBeGreaterThan(8); // dribbled out, not in one piece
  });

  it('queues writes back to back: two frames take twice the wire time', () => {
    const r = rig('byte');
    r.wire.write(new Uint8Array(16).fill(1));
    r.wire.write(new Uint8Array(16).fill(2));
    r.clock.advance(Math.floor(16 * BYTE_MS));
    expect(r.total().filter((b) => b === 2)).toEqual([]);
    r.clock.advance(Math.floor(16 * BYTE_MS));
    expect(r.total().length).toBeLessThan(32);
    r.clock.advance(2);
    expect(r.total()).toHaveLength(32);
    expect(r.got.at(-1)!.at - 1000).toBeGreaterThanOrEqual(32 * BYTE_MS);
  });

  it('frame mode: each write arrives whole, when its last byte would have', () => {
    const r = rig('frame');
    r.wire.write(new Uint8Array(16).fill(7));
    r.clock.advance(16);
    expect(r.got).toEqual([]);
    r.clock.advance(1);
    expect(r.got).toEqual([{ at: 1017, bytes: new Array(16).fill(7) }]);
  });

  it('keeps order: a delayed frame holds back the ones after it', () => {
    for (const mode of ['byte', 'frame', 'off'] as const) {
      const r = rig(mode);
      r.wire.write(Uint8Array.from([1, 1]), r.clock.now() + 700);
      r.wire.write(Uint8Array.from([2, 2]));
      r.clock.advance(699);
      expect(r.got).toEqual([]);
      r.clock.advance(50);
      expect(r.total()).toEqual([1, 1, 2, 2]);
      expect(r.got[0]!.at).toBeGreaterThanOrEqual(1700);
    }
  });

  it('off: bytes leave at once', () => {
    const r = rig('off');
    r.wire.write(Uint8Array.from([1, 2, 3]));
    expect(r.got).toEqual([{ at: 1000, bytes: [1, 2, 3] }]);
  });

  it('clear drops what is not yet on the wire (the cable was pulled)', () => {
    const r = rig('byte');
    r.wire.write(new Uint8Array(16));
    r.clock.advance(5);
    const before = r.total().length;
    expect(before).toBeGreaterThan(0);
    r.wire.clear();
    expect(r.wire.queuedBytes).toBe(0);
    r.clock.advance(100);
    expect(r.total().length).toBe(before);
  });
});
