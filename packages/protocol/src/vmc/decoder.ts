import { VMC_FRAME_LENGTH } from './constants.ts';
import { decodeVmcFrame, startByteOf } from './frame.ts';
import type { VmcDirection, VmcFrame } from './frame.ts';

export interface VmcDecoderStats {
  /** Frames that passed every check. */
  frames: number;
  /** Full-length frames whose CRC (or 7-bit body) did not check. */
  badFrames: number;
  /** Frames cut short by the next start byte. */
  truncated: number;
  /** Bytes thrown away outside any frame (noise, the other direction's frames, remnants). */
  discardedBytes: number;
}

/**
 * Streaming frame decoder for one direction. Feed it whatever chunks the port delivers; it returns
 * the complete, checked frames. It holds at most one frame's worth of bytes and resynchronises on
 * the next start byte after any garbage, so a lost, added or damaged byte costs at most the frame it
 * was in and never the frames after it.
 */
export class VmcFrameDecoder {
  private readonly start: number;
  private readonly buf = new Uint8Array(VMC_FRAME_LENGTH);
  private len = 0;
  readonly stats: VmcDecoderStats = { frames: 0, badFrames: 0, truncated: 0, discardedBytes: 0 };

  constructor(readonly expect: VmcDirection) {
    this.start = startByteOf(expect);
  }

  push(chunk: Uint8Array): VmcFrame[] {
    const out: VmcFrame[] = [];
    for (const b of chunk) {
      if (b === this.start) {
        if (this.len > 0) {
          this.stats.truncated++;
          this.stats.discardedBytes += this.len;
        }
        this.buf[0] = b;
        this.len = 1;
        continue;
      }
      if (this.len === 0 || b > 0x7f) {
        // outside a frame, or a start byte of the other direction / line noise: not ours
        this.stats.discardedBytes += this.len + 1;
        if (this.len > 0) this.stats.truncated++;
        this.len = 0;
        continue;
      }
      this.buf[this.len++] = b;
      if (this.len === VMC_FRAME_LENGTH) {
        const r = decodeVmcFrame(this.buf, this.expect);
        this.len = 0;
        if (r.ok) {
          this.stats.frames++;
          out.push(r.frame);
        } else {
          this.stats.badFrames++;
          this.stats.discardedBytes += VMC_FRAME_LENGTH;
        }
      }
    }
    return out;
  }

  /** Bytes of a frame in progress (0 when between frames). */
  get pending(): number {
    return this.len;
  }

  reset(): void {
    this.len = 0;
  }
}
