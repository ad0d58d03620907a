import { crc16CcittFalse } from './crc16.ts';
import { VMC_DATA_LENGTH, VMC_FRAME_LENGTH, VMC_OFFSET, VMC_START_BOARD, VMC_START_HOST } from './constants.ts';

/** Who sent a frame: the host (agent) or the board. Each direction has its own start byte. */
export type VmcDirection = 'host' | 'board';

/** A frame that passed every check: length, start byte, 7-bit body, CRC. */
export interface VmcFrame {
  direction: VmcDirection;
  seq: number;
  command: number;
  /** Exactly VMC_DATA_LENGTH bytes, each 0x00–0x7F. */
  data: Uint8Array;
}

export type VmcFrameError = 'length' | 'start' | 'high-bit' | 'crc';

export type VmcFrameDecodeResult = { ok: true; frame: VmcFrame } | { ok: false; error: VmcFrameError };

export function startByteOf(direction: VmcDirection): number {
  return direction === 'host' ? VMC_START_HOST : VMC_START_BOARD;
}

function directionOfStart(byte: number): VmcDirection | undefined {
  if (byte === VMC_START_HOST) return 'host';
  if (byte === VMC_START_BOARD) return 'board';
  return undefined;
}

function is7bit(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 0x7f;
}

/** Builds the 16 bytes of a frame. Throws RangeError when a field does not fit in 7 bits. */
export function encodeVmcFrame(frame: VmcFrame): Uint8Array {
  if (!is7bit(frame.seq)) throw new RangeError(`seq must be 0..127, got ${frame.seq}`);
  if (!is7bit(frame.command)) throw new RangeError(`command must be 0..127, got ${frame.command}`);
  if (frame.data.length > VMC_DATA_LENGTH) throw new RangeError(`data is at most ${VMC_DATA_LENGTH} bytes, got ${frame.data.length}`);
  const out = new Uint8Array(VMC_FRAME_LENGTH);
  out[VMC_OFFSET.start] = startByteOf(frame.direction);
  out[VMC_OFFSET.seq] = frame.seq;
  out[VMC_OFFSET.command] = frame.command;
  frame.data.forEach((b, i) => {
    if (!is7bit(b)) throw new RangeError(`data byte ${i} must be 0..127, got ${b}`);
    out[VMC_OFFSET.data + i] = b;
  });
  const crc = crc16CcittFalse(out, 0, VMC_OFFSET.crc);
  out[VMC_OFFSET.crc] = crc >> 14;
  out[VMC_OFFSET.crc + 1] = (crc >> 7) & 0x7f;
  out[VMC_OFFSET.crc + 2] = crc & 0x7f;
  return out;
}

/**
 * Checks and splits exactly one frame. `expect` restricts the start byte to one direction.
 * Fails on: wrong length, unknown start byte, any later byte with bit 7 set, or a CRC mismatch
 * (the CRC's first byte carries only its top two bits, so any other value there is a mismatch too).
 */
export function decodeVmcFrame(bytes: Uint8Array, expect?: VmcDirection): VmcFrameDecodeResult {
  if (bytes.length !== VMC_FRAME_LENGTH) return { ok: false, error: 'length' };
  const direction = directionOfStart(bytes[0] ?? 0);
  if (!direction || (expect && direction !== expect)) return { ok: false, error: 'start' };
  for (let i = 1; i < VMC_FRAME_LENGTH; i++) if ((bytes[i] ?? 0) > 0x7f) return { ok: false, error: 'high-bit' };
  const sent = ((bytes[VMC_OFFSET.crc] ?? 0) << 14) | ((bytes[VMC_OFFSET.crc + 1] ?? 0) << 7) | (bytes[VMC_OFFSET.crc + 2] ?? 0);
  if (sent !== crc16CcittFalse(bytes, 0, VMC_OFFSET.crc)) return { ok: false, error: 'crc' };
  return {
    ok: true,
    frame: {
      direction,
      seq: bytes[VMC_OFFSET.seq] ?? 0,
      command: bytes[VMC_OFFSET.command] ?? 0,
      data: bytes.slice(VMC_OFFSET.data, VMC_OFFSET.data + VMC_DATA_LENGTH),
    },
  };
}

/** Spaced upper-case hex, as the protocol document and logs print frames: "AA 01 02 …". */
export function vmcHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}
