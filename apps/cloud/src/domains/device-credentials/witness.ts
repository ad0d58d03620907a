import { randomBytes, timingSafeEqual } from 'node:crypto';

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
/** The random part of a token as minted: 16 bytes in unpadded base64url. */
const TOKEN_CHARS = 22;

/** A machine's last `keep` tokens' random bytes, as drawn: a ring over one allocation, the oldest overwritten first. */
interface Kept {
  slots: Buffer[];
  count: number;
  next: number;
}

/**
 * The rotating witness token of `x-device-witness`. Each gateway response carries a fresh random
 * token; the cabinet echoes the last one it saw. Two boxes sharing one credential each echo what
 * *they* last saw, so sooner or later one echoes a token the other has already moved past.
 *
 * State lives in this process only: the hot legs pay no store write for it. The book keeps each
 * token's random bytes as drawn and compares an echo with every kept token in constant time; it
 * does not hash them, since a token is not a credential (it is sent in clear on every response,
 * nothing is refused on it, and a verdict is advisory: docs/decisions/gateway-and-credentials.md).
 * Tokens carry the minting process's nonce, so an echo minted by another replica or before a
 * restart is recognised as unjudgeable rather than reported as a copy.
 */
export class WitnessBook {
  readonly nonce: string;
  private readonly machines = new Map<string, Kept>();
  /** An echo's random part, decoded for the comparison (one buffer for every call: the check is synchronous). */
  private readonly echoed = Buffer.alloc(TOKEN_BYTES);
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
    if (dot !== this.nonce.length || !echo.startsWith(this.nonce)) return 'foreign';
    const known = this.machines.get(machineId);
    if (!known) return 'foreign';
    // Anything but 22 base64url characters (which decode to all 16 bytes) was never minted.
    if (echo.length - dot - 1 !== TOKEN_CHARS || this.echoed.write(echo.slice(dot + 1), 'base64url') !== TOKEN_BYTES) return 'stale';
    let hit = false;
    // Compare against every kept token so the time taken does not say which one matched.
    for (let i = 0; i < known.count; i++) if (timingSafeEqual(known.slots[i]!, this.echoed)) hit = true;
    return hit ? 'ok' : 'stale';
  }

  /** A fresh token for this response; the oldest kept token of the machine falls out. */
  mint(machineId: string): string {
    if (this.poolAt + TOKEN_BYTES > this.pool.length) {
      this.pool = randomBytes(4096);
      this.poolAt = 0;
    }
    const at = this.poolAt;
    this.poolAt += TOKEN_BYTES;
    let known = this.machines.get(machineId);
    if (known) this.machines.delete(machineId);
    else known = this.newKept();
    this.pool.copy(known.slots[known.next]!, 0, at, at + TOKEN_BYTES);
    known.next = (known.next + 1) % known.slots.length;
    if (known.count < known.slots.length) known.count++;
    this.machines.set(machineId, known);
    while (this.machines.size > this.opts.maxMachines) {
      const oldest = this.machines.keys().next().value;
      if (oldest === undefined) break;
      this.machines.delete(oldest);
    }
    return `${this.nonce}.${this.pool.toString('base64url', at, at + TOKEN_BYTES)}`;
  }

  private newKept(): Kept {
    const bytes = Buffer.allocUnsafeSlow(this.opts.keep * TOKEN_BYTES);
    const slots = Array.from({ length: this.opts.keep }, (_, i) => bytes.subarray(i * TOKEN_BYTES, (i + 1) * TOKEN_BYTES));
    return { slots, count: 0, next: 0 };
  }

  /** A new credential stream (enrolment, reset): earlier tokens of the machine mean nothing any more. */
  forget(machineId: string): void {
    this.machines.delete(machineId);
  }
}
