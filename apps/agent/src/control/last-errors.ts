import type { Clock, ControlStatus } from '@vend/protocol';

const KEPT = 10;

interface ErrorLine {
  at: number;
  source: string;
  message: string;
}

/**
 * The status view's "last errors": the newest ten, one line per source and message in a row (a
 * failure that repeats moves its time on rather than pushing out every other line).
 */
export class LastErrors {
  private readonly lines: ErrorLine[] = [];

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  note(source: string, message: string): void {
    const last = this.lines[this.lines.length - 1];
    if (last && last.source === source && last.message === message) {
      last.at = this.clock.now();
      return;
    }
    this.lines.push({ at: this.clock.now(), source, message });
    if (this.lines.length > KEPT) this.lines.shift();
  }

  /** Drops every line of `source`: the condition it reported has ended. */
  clear(source: string): void {
    this.lines.splice(0, this.lines.length, ...this.lines.filter((e) => e.source !== source));
  }

  /** Newest first. */
  view(): ControlStatus['lastErrors'] {
    return this.lines.map((e) => ({ ...e, at: new Date(e.at).toISOString() })).reverse();
  }
}
