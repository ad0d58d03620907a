import type { Clock, ControlPlanogram, GoodsData } from '@vend/protocol';
import { elapsedNow } from '../state/monotonic.ts';
import type { CloudClient } from './client.ts';

const PLANOGRAM_TTL_MS = 30_000;
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * The planogram for the control channel: the cloud's goods, asked for at most every 30 s; when the
 * cloud does not answer, the last copy marked stale (or an empty one naming the error).
 */
export class PlanogramCache {
  /** `at` wall time (shown), `elapsed` monotonic (its age: a stepped clock must not keep old prices fresh for hours). */
  private cached: { at: number; elapsed: number; goods: GoodsData } | null = null;

  constructor(
    private readonly client: Pick<CloudClient, 'goods'>,
    private readonly clock: Clock,
    private readonly machineCode: string,
    /** How long a copy is fresh: the storefront shows a price or stock change within one heartbeat interval. */
    private readonly ttlMs: () => number = () => PLANOGRAM_TTL_MS,
  ) {}

  /** A fetch under way: callers meanwhile share it (the kiosk's screen polls every few seconds). */
  private inflight: Promise<ControlPlanogram> | null = null;
  /** After a failed fetch, the stale copy is answered for a few seconds before the cloud is asked again. */
  private failed: { elapsed: number; error: string } | null = null;

  async get(signal: AbortSignal): Promise<ControlPlanogram> {
    const elapsed = elapsedNow(this.clock);
    if (this.cached && elapsed - this.cached.elapsed < Math.min(PLANOGRAM_TTL_MS, this.ttlMs()))
      return { ...this.cached.goods, stale: false, fetchedAt: new Date(this.cached.at).toISOString() };
    if (this.failed && elapsed - this.failed.elapsed < RETRY_AFTER_FAILURE_MS) return this.staleCopy(this.failed.error);
    this.inflight ??= this.fetch(signal).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async fetch(signal: AbortSignal): Promise<ControlPlanogram> {
    const now = this.clock.now();
    const elapsed = elapsedNow(this.clock);
    try {
      const goods = await this.client.goods({ attempts: 1, signal });
      this.cached = { at: now, elapsed, goods };
      this.failed = null;
      return { ...goods, stale: false, fetchedAt: new Date(now).toISOString() };
    } catch (e) {
      this.failed = { elapsed, error: (e as Error).message };
      return this.staleCopy(this.failed.error);
    }
  }

  private staleCopy(error: string): ControlPlanogram {
    if (this.cached) return { ...this.cached.goods, stale: true, fetchedAt: new Date(this.cached.at).toISOString(), error };
    return { machineCode: this.machineCode, currency: null, aisles: [], stale: true, fetchedAt: null, error };
  }
}
