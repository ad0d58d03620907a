import { VMC_BAUD_RATE, vmcWireTimeMs } from '@vend/protocol';
import type { Clock } from '@vend/protocol';

/**
 * How bytes are released onto the simulated wire:
 * - `byte`: each byte when its 10 bits would have finished on a 9600 8N1 line (the real thing);
 * - `frame`: each write in one piece when its last byte would have finished (same latency, far
 *   fewer timers: for long campaigns on a virtual clock);
 * - `off`: at once (only `notBefore` delays are honoured).
 */
export type PaceMode = 'byte' | 'frame' | 'off';

interface Pending {
  bytes: Uint8Array;
  notBefore: number;
  /** Time the first bit goes out, fixed when this write reaches the head of the queue. */
  startAt?: number;
  sent: number;
}

/** A one-way serial line at a given baud rate: writes queue in order and come out at wire speed. */
export class WirePacer {
  private queue: Pending[] = [];
  private lineFreeAt = 0;
  private timer: unknown = null;
  private readonly byteMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly sink: (chunk: Uint8Array) => void,
    private readonly mode: PaceMode = 'byte',
    baudRate: number = VMC_BAUD_RATE,
  ) {
    this.byteMs = vmcWireTimeMs(1, baudRate);
  }

  /** Queues bytes; none leave before `notBefore` (clock time), and never before earlier writes. */
  write(bytes: Uint8Array, notBefore = this.clock.now()): void {
    if (bytes.length === 0) return;
    this.queue.push({ bytes, notBefore, sent: 0 });
    this.pump();
  }

  /** Drops everything not yet on the wire (the cable was pulled). */
  clear(): void {
    this.queue = [];
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  get queuedBytes(): number {
    return this.queue.reduce((n, p) => n + p.bytes.length - p.sent, 0);
  }

  private pump(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    const now = this.clock.now();
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (head.startAt === undefined) head.startAt = Math.max(head.notBefore, this.mode === 'off' ? 0 : this.lineFreeAt);
      const len = head.bytes.length;
      let due: number;
      let nextAt: number;
      if (this.mode === 'off') {
        due = now >= head.startAt ? len : 0;
        nextAt = head.startAt;
      } else if (this.mode === 'frame') {
        const end = head.startAt + len * this.byteMs;
        due = now + 1e-9 >= end ? len : 0;
        nextAt = end;
      } else {
        due = Math.min(len, Math.floor((now - head.startAt) / this.byteMs + 1e-9));
        nextAt = head.startAt + (head.sent + 1) * this.byteMs;
      }
      if (due > head.sent) {
        const chunk = head.bytes.slice(head.sent, due);
        head.sent = due;
        this.sink(chunk);
      }
      if (head.sent < len) {
        this.timer = this.clock.setTimeout(
          () => {
            this.timer = null;
            this.pump();
          },
          Math.max(0, Math.ceil(nextAt - now)),
        );
        return;
      }
      this.lineFreeAt = head.startAt + (this.mode === 'off' ? 0 : len * this.byteMs);
      this.queue.shift();
    }
  }
}
