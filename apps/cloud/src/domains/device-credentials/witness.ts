import { randomBytes } from 'node:crypto';
import { sameDigest, sha256 } from './device-keys.ts';

/**
 * What an echoed witness token says:
 * - `none`: no echo (first call, or the cabinet lost its state) — no evidence either way;
 * - `ok`: the echo is one of the last `keep` tokens this process handed the machine;
 * - `foreign`: minted by another process (another replica, or before a restart) — this process cannot judge it;
 * - `stale`: minted here for this machine's credential stream but superseded, or never minted at all
 *   (an invented token): a copy of the credential is answering from a second box.
 */
export type WitnessVerdict = 'none' | 'ok' | 'foreign' | 'stale';

export interface WitnessOptions {
  /** Tokens accepted per machine: the current and the one before (a call in flight when the next was minted). */
  keep: number;
  /** Machines remembered; the least recently seen is forgotten first (its next echo is then `foreign`). */
  maxMachines: number;
  /** Identifies this process inside every token it mints. */
  nonce?: string;
}

const MAX_ECHO = 128;
const TOKEN_BYTES = 16;

/**
 * The rotating witness token of `x-device-witness`. Each gateway response carries a fresh random
 * token; the cabinet echoes the last one it saw. Two boxes sharing one credential each echo what
 * *they* last saw, so sooner or later one echoes a token the other has already moved past.
 *
 * State lives in this process only (hashes, never tokens): the hot legs pay no store write for it.
 * Tokens carry the minting process's nonce, so an echo minted by another replica or before a
 * restart is recognised as unjudgeable rather than reported as a copy.
 */
export class WitnessBook {
  readonly nonce: string;
  private readonly machines = new Map<string, Buffer[]>();
  /** Random bytes drawn 4 KiB at a time: one system call per 256 tokens instead of one per response. */
  private pool = Buffer.alloc(0);
  private poolAt = 0;

  constructor(private readonly opts: WitnessOptions) {
    this.nonce = opts.nonce ?? randomBytes(4).toString('hex');
  }

  get size(): number {
    return this.machines.size;
  }

  /** Judges an echo against what this process handed the machine. Call before `mint` for the same request. */
  check(machineId: string, echo: string | undefined): WitnessVerdict {
    if (echo === undefined || echo === '') return 'none';
    if (echo.length > MAX_ECHO) return 'stale';
    const dot = echo.indexOf('.');
    if (dot < 0) return 'stale';
    if (echo.slice(0, dot) !== this.nonce) return 'foreign';
    const known = this.machines.get(machineId);
    if (!known) return 'foreign';
    const digest = sha256(echo);
    let hit = false;
    // Compare against every kept hash so the time taken does not say which one matched.
    for (const h of known) if (sameDigest(h, digest)) hit = true;
    return hit ? 'ok' : 'stale';
  }

  /** A fresh token for this response; the oldest kept token of the machine falls out. */
  mint(machineId: string): string {
    if (this.poolAt + TOKEN_BYTES > this.pool.length) {
      this.pool = randomBytes(4096);
      this.poolAt = 0;
    }
    const token = `${this.nonce}.${this.pool.toString('base64url', this.poolAt, this.poolAt + TOKEN_BYTES)}`;
    this.poolAt += TOKEN_BYTES;
    const digest = sha256(token);
    const known = this.machines.get(machineId) ?? [];
    known.unshift(digest);
    if (known.length > this.opts.keep) known.length = this.opts.keep;
    this.machines.delete(machineId);
    this.machines.set(machineId, known);
    while (this.machines.size > this.opts.maxMachines) {
      const oldest = this.machines.keys().next().value;
      if (oldest === undefined) break;
      this.machines.delete(oldest);
    }
    return token;
  }

  /** A new credential stream (enrolment, reset): earlier tokens of the machine mean nothing any more. */
  forget(machineId: string): void {
    this.machines.delete(machineId);
  }
}
