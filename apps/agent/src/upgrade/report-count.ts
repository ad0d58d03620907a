import type { BlockedReport, Clock, DeferralReport } from '@vend/protocol';

/**
 * How long the same offer has been deferred or blocked, for the heartbeat's reports: one count and
 * one first time per kind, version and minFrom; another of them starts again at one.
 */
export class ReportCount {
  private current: { kind: 'deferring' | 'blocked'; version: string; minFrom: string; count: number; firstAt: number } | null = null;

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  blocked(version: string, minFrom: string): BlockedReport {
    return { ...this.next('blocked', version, minFrom), minFrom };
  }

  deferring(version: string, reason: string): DeferralReport {
    return { ...this.next('deferring', version, ''), reason };
  }

  /** The condition ended (nothing offered, installed, refused, committed). */
  reset(): void {
    this.current = null;
  }

  private next(kind: 'deferring' | 'blocked', version: string, minFrom: string): { version: string; count: number; seconds: number } {
    const now = this.clock.now();
    const cur = this.current;
    if (cur && cur.kind === kind && cur.version === version && cur.minFrom === minFrom) cur.count++;
    else this.current = { kind, version, minFrom, count: 1, firstAt: now };
    const { count, firstAt } = this.current!;
    return { version, count, seconds: Math.max(0, Math.floor((now - firstAt) / 1000)) };
  }
}
