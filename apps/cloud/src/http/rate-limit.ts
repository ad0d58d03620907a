import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';
import { principalOf } from './authenticate.ts';

const WINDOW_SECONDS = 3600;

/**
 * Fixed hourly budget per credential (spec 1 §8). Counters live in process, or in Redis when
 * configured so that replicas share one budget. Over budget: 429 with `Retry-After: 3600`.
 */
export class RateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  constructor(
    private readonly redis: Redis | null,
    private readonly prefix = 'vend:',
  ) {}

  private limiterFor(points: number): RateLimiterAbstract {
    let l = this.limiters.get(points);
    if (!l) {
      const opts = { points, duration: WINDOW_SECONDS, keyPrefix: `${this.prefix}rl${points}` };
      l = this.redis ? new RateLimiterRedis({ ...opts, storeClient: this.redis }) : new RateLimiterMemory(opts);
      this.limiters.set(points, l);
    }
    return l;
  }

  /** Spends one request; false when the credential is over budget. */
  async consume(credentialKey: string, points: number): Promise<boolean> {
    try {
      await this.limiterFor(points).consume(credentialKey, 1);
      return true;
    } catch (e) {
      if (e instanceof RateLimiterRes) return false;
      throw e;
    }
  }

  middleware(): RequestHandler {
    return async (req, _res, next) => {
      const p = principalOf(req);
      if (!(await this.consume(`${p.authMethod}:${p.credentialId}`, p.rateLimit))) {
        throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': String(WINDOW_SECONDS) } });
      }
      next();
    };
  }
}
