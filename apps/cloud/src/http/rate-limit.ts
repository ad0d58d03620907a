import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RLWrapperTimeouts, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';
import { principalOf } from './authenticate.ts';

const WINDOW_SECONDS = 3600;
/** How long a Redis answer may take before the request is counted in process instead. */
const DEFAULT_REDIS_TIMEOUT_MS = 1000;

/** Where the limiter says that Redis went away and came back (pino's shape). */
export interface RateLimitLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RateLimiterOptions {
  logger?: RateLimitLog | null;
  /** Bound on one Redis round trip; past it the in-process counter answers. */
  redisTimeoutMs?: number;
}

/** The in-process counter that answers while Redis cannot; tells its owner each time it is used. */
class FallbackLimiter extends RateLimiterMemory {
  constructor(
    opts: { points: number; duration: number; keyPrefix: string },
    private readonly onUse: () => void,
  ) {
    super(opts);
  }

  override consume(key: string | number, pointsToConsume?: number, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    this.onUse();
    return super.consume(key, pointsToConsume, options);
  }
}

/**
 * Fixed hourly budget per credential (spec 1 §8). Counters live in process, or in Redis when
 * configured so that replicas share one budget. Over budget: 429 with `Retry-After: 3600`.
 *
 * With Redis, an in-process counter of the same budget is the insurance: while Redis is not
 * connected, errs, or takes longer than `redisTimeoutMs`, requests are counted (and refused) in
 * process instead of failing, and a warning is logged once per outage (docs/decisions/auth.md).
 */
export class RateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly logger: RateLimitLog | null;
  private readonly redisTimeoutMs: number;
  private degraded = false;

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix = 'vend:',
    opts: RateLimiterOptions = {},
  ) {
    this.logger = opts.logger ?? null;
    this.redisTimeoutMs = opts.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    redis?.on('ready', () => {
      if (!this.degraded) return;
      this.degraded = false;
      this.logger?.info({}, 'rate limiter: Redis is back; budgets are shared again');
    });
  }

  /** True while the last word from Redis was a failure (requests are being counted in process). */
  get fallingBack(): boolean {
    return this.degraded;
  }

  private onFallback(): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger?.warn({}, 'rate limiter: Redis unreachable; counting in process until it is back (each replica keeps its own budget meanwhile)');
  }

  private limiterFor(points: number): RateLimiterAbstract {
    let l = this.limiters.get(points);
    if (!l) {
      const opts = { points, duration: WINDOW_SECONDS, keyPrefix: `${this.prefix}rl${points}` };
      if (this.redis) {
        // Not ready (connecting, reconnecting, closed): rejected at once, not queued. The wrapper bounds a
        // round trip that hangs; either way its insurance, the in-process counter, answers — once per request.
        const store = new RateLimiterRedis({ ...opts, storeClient: this.redis, rejectIfRedisNotReady: true });
        const insurance = new FallbackLimiter(opts, () => this.onFallback());
        l = new RLWrapperTimeouts({ limiter: store, timeoutMs: this.redisTimeoutMs, insuranceLimiter: insurance });
      } else {
        l = new RateLimiterMemory(opts);
      }
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
