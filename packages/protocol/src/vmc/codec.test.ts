import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc16CcittFalse } from './crc16.ts';
import { VMC_FRAME_LENGTH, VMC_START_BOARD, VMC_START_HOST, vmcWireTimeMs, nextVmcSeq } from './constants.ts';
import { decodeVmcFrame, encodeVmcFrame, vmcHex } from './frame.ts';
import type { VmcFrame } from './frame.ts';
import { decodeBoardMessage, decodeHostMessage, encodeBoardMessage, encodeHostMessage } from './messages.ts';
import { boardMessageArb, hostMessageArb, seqArb } from './arbitraries.test-support.ts';

const frameArb: fc.Arbitrary<VmcFrame> = fc.record({
  direction: fc.constantFrom('host' as const, 'board' as const),
  seq: seqArb,
  command: fc.integer({ min: 0, max: 127 }),
  data: fc.uint8Array({ minLength: 10, maxLength: 10, max: 127 }),
});

describe('CRC-16/CCITT-FALSE', () => {
  it('matches the published check value and known vectors', () => {
    expect(crc16CcittFalse(new TextEncoder().encode('123456789'))).toBe(0x29b1);
    expect(crc16CcittFalse(new Uint8Array())).toBe(0xffff);
    expect(crc16CcittFalse(new Uint8Array([0x00]))).toBe(0xe1f0);
  });
});

describe('frame codec', () => {
  it('every frame round-trips, is 16 bytes, and only its start byte has bit 7 set', () => {
    fc.assert(
      fc.property(frameArb, (f) => {
        const bytes = encodeVmcFrame(f);
        expect(bytes).toHaveLength(VMC_FRAME_LENGTH);
        expect(bytes[0]).toBe(f.direction === 'host' ? VMC_START_HOST : VMC_START_BOARD);
        expect(Array.from(bytes.slice(1)).every((b) => b <= 0x7f)).toBe(true);
        expect(decodeVmcFrame(bytes)).toEqual({ ok: true, frame: f });
      }),
    );
  });

  it('detects every single corrupted byte: every position, every other value', () => {
    fc.assert(
      fc.property(frameArb, (f) => {
        const good = encodeVmcFrame(f);
        for (let pos = 0; pos < VMC_FRAME_LENGTH; pos++) {
          for (let v = 0; v < 256; v++) {
            if (v === good[pos]) continue;
            const bad = good.slice();
            bad[pos] = v;
            const r = decodeVmcFrame(bad);
            if (r.ok) throw new Error(`undetected: byte ${pos} ${good[pos]} -> ${v} in ${vmcHex(good)}`);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('detects every truncation', () => {
    fc.assert(
      fc.property(frameArb, fc.integer({ min: 0, max: VMC_FRAME_LENGTH - 1 }), fc.boolean(), (f, keep, fromFront) => {
        const good = encodeVmcFrame(f);
        const cut = fromFront ? good.slice(0, keep) : good.slice(VMC_FRAME_LENGTH - keep);
        expect(decodeVmcFrame(cut).ok).toBe(false);
      }),
    );
  });

  it('refuses a frame from the other direction when one is expected', () => {
    const f = encodeVmcFrame({ direction: 'host', seq: 1, command: 1, data: new Uint8Array(10) });
    expect(decodeVmcFrame(f, 'board')).toEqual({ ok: false, error: 'start' });
    expect(decodeVmcFrame(f, 'host').ok).toBe(true);
  });

  it('refuses fields that do not fit in 7 bits', () => {
    expect(() => encodeVmcFrame({ direction: 'host', seq: 128, command: 1, data: new Uint8Array(10) })).toThrow(RangeError);
    expect(() => encodeVmcFrame({ direction: 'host', seq: 1, command: 1, data: new Uint8Array([0x80]) })).toThrow(RangeError);
    expect(() => encodeVmcFrame({ direction: 'host', seq: 1, command: 1, data: new Uint8Array(11) })).toThrow(RangeError);
  });
});

describe('messages', () => {
  it('every host message round-trips', () => {
    fc.assert(
      fc.property(seqArb, hostMessageArb, (seq, m) => {
        expect(decodeHostMessage(encodeHostMessage(seq, m))).toEqual({ ok: true, seq, message: m });
      }),
    );
  });

  it('every board message round-trips', () => {
    fc.assert(
      fc.property(seqArb, boardMessageArb, (seq, m) => {
        expect(decodeBoardMessage(encodeBoardMessage(seq, m))).toEqual({ ok: true, seq, message: m });
      }),
    );
  });

  it('every single corrupted byte of a message frame is caught before it is interpreted', () => {
    fc.assert(
      fc.property(seqArb, boardMessageArb, fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 255 }), (seq, m, pos, mask) => {
        const bytes = encodeBoardMessage(seq, m);
        bytes[pos] = (bytes[pos] ?? 0) ^ mask;
        expect(decodeBoardMessage(bytes)).toBeUndefined();
      }),
    );
  });

  it('reports unknown commands and malformed arguments instead of guessing', () => {
    const unknown = encodeVmcFrame({ direction: 'host', seq: 3, command: 0x33, data: new Uint8Array(10) });
    expect(decodeHostMessage(unknown)).toEqual({ ok: false, seq: 3, command: 0x33, error: 'unknown-command' });
    const padded = encodeVmcFrame({ direction: 'host', seq: 4, command: 0x02, data: new Uint8Array([0, 0, 0, 1]) });
    expect(decodeHostMessage(padded)).toEqual({ ok: false, seq: 4, command: 0x02, error: 'bad-argument' });
    const badResult = encodeVmcFrame({ direction: 'board', seq: 4, command: 0x52, data: new Uint8Array([0, 1, 0x40]) });
    expect(decodeBoardMessage(badResult)).toMatchObject({ ok: false, error: 'bad-argument' });
  });

  it('encodes a dispense of aisle 12 (boot id 4660) with sequence 1 exactly as the protocol document shows', () => {
    // The document's worked example; if the layout or CRC changes, the document must change too.
    expect(vmcHex(encodeHostMessage(1, { kind: 'dispense', aisle: 12, bootId: 4660 }))).toBe(DOC_DISPENSE_12);
  });
});

describe('timing helpers', () => {
  it('wire time is 10 bits per byte at 9600 baud', () => {
    expect(vmcWireTimeMs(16)).toBeCloseTo(16.667, 3);
    expect(vmcWireTimeMs(9600 / 10)).toBe(1000);
  });
  it('sequence numbers run 1..127 and never produce 0', () => {
    expect(nextVmcSeq(0)).toBe(1);
    expect(nextVmcSeq(1)).toBe(2);
    expect(nextVmcSeq(127)).toBe(1);
  });
});

// Filled from the codec when the document was written; see docs/vmc-protocol.md §7.
const DOC_DISPENSE_12 = 'AA 01 03 00 0C 24 34 00 00 00 00 00 00 00 27 09';
