import type { Random } from './rng.ts';
import type { BoardOutput } from './board.ts';

/** Random line trouble for fault campaigns: each probability applies per frame (or per incoming chunk). */
export interface RandomFaults {
  /** Board -> host frame lost. */
  loseToHost: number;
  /** Host -> board chunk lost. */
  loseToBoard: number;
  /** One byte of a board -> host frame corrupted. */
  corruptToHost: number;
  /** One byte of a host -> board chunk corrupted. */
  corruptToBoard: number;
  /** An ACK-class frame held back by a random delay in [delayMs[0], delayMs[1]]. */
  delayAck: number;
  delayMs: [number, number];
}

export interface LinkFaultState {
  dropAcks: number;
  delayAcksMs: number;
  delayAcksCount: number;
  corruptToHost: number;
  corruptToBoard: number;
  loseToHost: number;
  loseToBoard: number;
  random: RandomFaults | null;
}

/** What happens to one outgoing frame. */
export type OutgoingFate = { deliver: false; why: string } | { deliver: true; bytes: Uint8Array; delayMs: number; why?: string };

/**
 * Line faults between the board and the wire, in both directions. Counters are consumed first
 * (QA's "drop the next 2 ACKs"), then the random campaign, if any.
 */
export class LinkFaults {
  dropAcks = 0;
  delayAcksMs = 0;
  /** How many more ACK-class frames to delay (Infinity until cleared). */
  delayAcksCount = 0;
  corruptToHost = 0;
  corruptToBoard = 0;
  loseToHost = 0;
  loseToBoard = 0;
  random: RandomFaults | null = null;

  constructor(private readonly rng: Random) {}

  clear(): void {
    this.dropAcks = 0;
    this.delayAcksMs = 0;
    this.delayAcksCount = 0;
    this.corruptToHost = 0;
    this.corruptToBoard = 0;
    this.loseToHost = 0;
    this.loseToBoard = 0;
    this.random = null;
  }

  snapshot(): LinkFaultState {
    return {
      dropAcks: this.dropAcks,
      delayAcksMs: this.delayAcksMs,
      delayAcksCount: this.delayAcksCount,
      corruptToHost: this.corruptToHost,
      corruptToBoard: this.corruptToBoard,
      loseToHost: this.loseToHost,
      loseToBoard: this.loseToBoard,
      random: this.random,
    };
  }

  outgoing(out: BoardOutput): OutgoingFate {
    const ackClass = out.kind !== 'result';
    const r = this.random;
    if (ackClass && this.dropAcks > 0) {
      this.dropAcks--;
      return { deliver: false, why: 'dropAcks' };
    }
    if (this.loseToHost > 0) {
      this.loseToHost--;
      return { deliver: false, why: 'loseToHost' };
    }
    if (r && this.rng.chance(r.loseToHost)) return { deliver: false, why: 'random loss' };
    let bytes = out.bytes;
    let why: string | undefined;
    if (this.corruptToHost > 0) {
      this.corruptToHost--;
      bytes = this.corrupt(bytes);
      why = 'corrupt';
    } else if (r && this.rng.chance(r.corruptToHost)) {
      bytes = this.corrupt(bytes);
      why = 'random corrupt';
    }
    let delayMs = 0;
    if (ackClass && this.delayAcksCount > 0 && this.delayAcksMs > 0) {
      this.delayAcksCount--;
      delayMs = this.delayAcksMs;
    } else if (ackClass && r && this.rng.chance(r.delayAck)) {
      delayMs = r.delayMs[0] + this.rng.int(Math.max(1, r.delayMs[1] - r.delayMs[0] + 1));
    }
    return why === undefined ? { deliver: true, bytes, delayMs } : { deliver: true, bytes, delayMs, why };
  }

  /** Host -> board bytes as they come off the port; returns what the board's receiver gets (maybe nothing). */
  incoming(chunk: Uint8Array): Uint8Array {
    const r = this.random;
    if (this.loseToBoard > 0) {
      this.loseToBoard--;
      return new Uint8Array();
    }
    if (r && this.rng.chance(r.loseToBoard)) return new Uint8Array();
    if (this.corruptToBoard > 0) {
      this.corruptToBoard--;
      return this.corrupt(chunk);
    }
    if (r && this.rng.chance(r.corruptToBoard)) return this.corrupt(chunk);
    return chunk;
  }

  /** Flips one byte to a different random value (any of the 255 others). */
  private corrupt(bytes: Uint8Array): Uint8Array {
    if (bytes.length === 0) return bytes;
    const copy = bytes.slice();
    const i = this.rng.int(copy.length);
    copy[i] = ((copy[i] ?? 0) ^ (1 + this.rng.int(255))) & 0xff;
    return copy;
  }
}
