import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VMC_FRAME_LENGTH, VMC_START_BOARD } from './constants.ts';
import { VmcFrameDecoder } from './decoder.ts';
import { encodeBoardMessage, encodeHostMessage, parseBoardFrame } from './messages.ts';
import type { VmcFrame } from './frame.ts';
import { boardMessageArb, hostMessageArb, seqArb } from './arbitraries.test-support.ts';

const framesArb = fc.array(
  fc.tuple(seqArb, boardMessageArb).map(([s, m]) => encodeBoardMessage(s, m)),
  { minLength: 1, maxLength: 8 },
);

/** Splits bytes into chunks at the given cut points (as a serial port delivers them). */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(prev, p));
    prev = p;
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function feed(d: VmcFrameDecoder, chunks: Uint8Array[]): Uint8Array[] {
  const frames: VmcFrame[] = [];
  for (const c of chunks) {
    frames.push(...d.push(c));
    expect(d.pending).toBeLessThan(VMC_FRAME_LENGTH);
  }
  return frames.map((f) => reencode(f));
}

function reencode(f: VmcFrame): Uint8Array {
  const m = parseBoardFrame(f);
  if (!m.ok) throw new Error('decoder emitted a frame that does not parse');
  return encodeBoardMessage(m.seq, m.message);
}

describe('streaming frame decoder', () => {
  it('yields exactly the frames sent, however the bytes are split', () => {
    fc.assert(
      fc.property(framesArb, fc.array(fc.nat(), { maxLength: 20 }), (frames, cuts) => {
        const d = new VmcFrameDecoder('board');
        expect(feed(d, chunk(concat(frames), cuts))).toEqual(frames);
      }),
    );
  });

  it('resynchronises after noise between frames', () => {
    // Noise of up to 15 bytes can never complete a frame before the next start byte cuts it off,
    // so the output is exactly the frames, whatever the noise holds (start bytes included).
    const noise = fc.uint8Array({ maxLength: VMC_FRAME_LENGTH - 1 });
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            noise,
            framesArb.map((f) => f[0]!),
          ),
        ),
        noise,
        fc.array(fc.nat(), { maxLength: 20 }),
        (pairs, tail, cuts) => {
          const d = new VmcFrameDecoder('board');
          const stream = concat([...pairs.flatMap(([n, f]) => [n, f]), tail]);
          expect(feed(d, chunk(stream, cuts))).toEqual(pairs.map(([, f]) => f));
        },
      ),
    );
  });

  it('loses only the damaged frame when any single byte is corrupted', () => {
    fc.assert(
      fc.property(framesArb, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.array(fc.nat(), { maxLength: 10 }), (frames, where, value, cuts) => {
        const stream = concat(frames);
        const pos = where % stream.length;
        fc.pre(stream[pos] !== value);
        stream[pos] = value;
        const damaged = Math.floor(pos / VMC_FRAME_LENGTH);
        const d = new VmcFrameDecoder('board');
        expect(feed(d, chunk(stream, cuts))).toEqual(frames.filter((_, i) => i !== damaged));
      }),
    );
  });

  it('loses only the truncated frame when bytes go missing from one frame', () => {
    fc.assert(
      fc.property(framesArb, fc.nat(), fc.integer({ min: 1, max: VMC_FRAME_LENGTH - 1 }), (frames, which, drop) => {
        const victim = which % frames.length;
        const parts = frames.map((f, i) => (i === victim ? f.slice(0, VMC_FRAME_LENGTH - drop) : f));
        // drop from the middle too: keep the head and the tail of the frame
        const d = new VmcFrameDecoder('board');
        expect(feed(d, [concat(parts)])).toEqual(frames.filter((_, i) => i !== victim));
        const holed = frames.map((f, i) => (i === victim ? concat([f.slice(0, 1 + (drop % 14)), f.slice(2 + (drop % 14))]) : f));
        expect(feed(new VmcFrameDecoder('board'), [concat(holed)])).toEqual(frames.filter((_, i) => i !== victim));
      }),
    );
  });

  it("ignores the other direction's frames (a line that echoes)", () => {
    fc.assert(
      fc.property(seqArb, hostMessageArb, framesArb, (seq, hm, frames) => {
        const echo = encodeHostMessage(seq, hm);
        const d = new VmcFrameDecoder('board');
        expect(feed(d, [concat(frames.flatMap((f) => [echo, f]))])).toEqual(frames);
      }),
    );
  });

  it('counts what it threw away', () => {
    const d = new VmcFrameDecoder('board');
    const good = encodeBoardMessage(5, { kind: 'nak', reason: 'badArgument', command: 3 });
    const bad = good.slice();
    bad[9] = (bad[9] ?? 0) ^ 1;
    expect(d.push(concat([new Uint8Array([1, 2, 3]), bad, good.slice(0, 4), good]))).toHaveLength(1);
    expect(d.stats).toEqual({ frames: 1, badFrames: 1, truncated: 1, discardedBytes: 3 + 16 + 4 });
    expect(d.push(new Uint8Array([VMC_START_BOARD, 1, 2]))).toEqual([]);
    expect(d.pending).toBe(3);
    d.reset();
    expect(d.pending).toBe(0);
  });
});
