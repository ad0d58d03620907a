import type { Clock, ControlPlanogram, GoodsData } from '@vend/protocol';
import { elapsedNow } from '../state/monotonic.ts';
import type { CloudClient } from './client.ts';

const PLANOGRAM_TTL_MS = 30_000;

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
  ) {}

  async get(signal: AbortSignal): Promise<ControlPlanogram> {
    const now = this.clock.now();
    const elapsed = elapsedNow(this.clock);
    if (this.cached && elapsed - this.cached.elapsed < PLANOGRAM_TTL_MS)
      return { ...this.cached.goods, stale: false, fetchedAt: new Date(this.cached.at).toISOString() };
    try {
      const goods = await this.client.goods({ attempts: 1, signal });
      this.cached = { at: now, elapsed, goods };
      return { ...goods, stale: false, fetchedAt: new Date(now).toISOString() };
    } catch (e) {
      if (this.cached) return { ...this.cached.goods, stale: true, fetchedAt: new Date(this.cached.at).toISOString(), error: (e as Error).message };
      return { machineCode: this.machineCode, currency: null, aisles: [], stale: true, fetchedAt: null, error: (e as Error).message };
    }
  }
}
