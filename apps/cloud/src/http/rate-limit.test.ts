import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RateLimiter, type RateLimitLog } from './rate-limit.ts';

/** A logger that remembers what it was told. */
function recorder(): RateLimitLog & { warns: string[]; infos: string[] } {
  const warns: string[] = [];
  const infos: string[] = [];
  return { warns, infos, warn: (_o, msg) => void warns.push(msg), info: (_o, msg) => void infos.push(msg) };
}

/** Spends `n` requests of a 3-per-hour budget and times the slowest. */
async function spend(limiter: RateLimiter, key: string, n: number): Promise<{ answers: boolean[]; slowestMs: number }> {
  const answers: boolean[] = [];
  let slowestMs = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    answers.push(await limiter.consume(key, 3));
    slowestMs = Math.max(slowestMs, performance.now() - started);
  }
  return { answers, slowestMs };
}

const clients: Redis[] = [];
/** A client for a port where nothing listens: no retries, no offline queue, no reconnecting. */
function unreachable(port = 1): Redis {
  const r = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 500,
  });
  r.on('error', () => {}); // the limiter is under test, not ioredis' error reporting
  clients.push(r);
  return r;
}

afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

describe('RateLimiter with Redis unreachable', () => {
  it('never connected: counts in process, allows the budget then denies, never throws, answers at once', async () => {
    const log = recorder();
    const limiter = new RateLimiter(unreachable(), 'test:', { logger: log, redisTimeoutMs: 300 });
    const a = await spend(limiter, 'api_key:a', 5);
    expect(a.answers).toEqual([true, true, true, false, false]);
    expect(a.slowestMs).toBeLessThan(250);
    // another credential keeps its own budget
    expect((await spend(limiter, 'api_key:b', 1)).answers).toEqual([true]);
    // a different budget size is a different counter, and still falls back
    expect(await limiter.consume('api_key:c', 1)).toBe(true);
    expect(await limiter.consume('api_key:c', 1)).toBe(false);
    expect(limiter.fallingBack).toBe(true);
    expect(log.warns).toHaveLength(1); // once per outage, not per request
    expect(log.warns[0]).toMatch(/Redis unreachable/);
  });

  it('connection refused (127.0.0.1:1, the client gave up): the same answers', async () => {
    const redis = unreachable();
    await redis.connect().catch(() => {});
    expect(redis.status).not.toBe('ready');
    const limiter = new RateLimiter(redis, 'test:', { redisTimeoutMs: 300 });
    const r = await spend(limiter, 'oauth:x', 4);
    expect(r.answers).toEqual([true, true, true, false]);
    expect(r.slowestMs).toBeLessThan(250);
  });

  describe('connected, but Redis never answers', () => {
    let silent: net.Server;
    const sockets = new Set<net.Socket>();
    beforeAll(async () => {
      // answers the client's connection handshake (CLIENT SETINFO) and then nothing: a hung Redis
      silent = net.createServer((s) => {
        sockets.add(s);
        s.on('data', (d) => {
          const handshakes = d.toString().match(/\r\nclient\r\n/gi)?.length ?? 0;
          if (handshakes) s.write('+OK\r\n'.repeat(handshakes));
        });
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it('each round trip is bounded by the timeout, then the in-process counter answers', async () => {
      const { port } = silent.address() as AddressInfo;
      const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => {});
      clients.push(redis);
      await redis.connect();
      expect(redis.status).toBe('ready');
      const log = recorder();
      const limiter = new RateLimiter(redis, 'test:', { logger: log, redisTimeoutMs: 150 });
      const r = await spend(limiter, 'session:s', 4);
      expect(r.answers).toEqual([true, true, true, false]);
      expect(r.slowestMs).toBeGreaterThanOrEqual(140);
      expect(r.slowestMs).toBeLessThan(1500);
      expect(log.warns).toHaveLength(1);
    });
  });

  it("logs once per outage: Redis' 'ready' ends it, the next failure starts another", async () => {
    const redis = unreachable();
    const log = recorder();
    const limiter = new RateLimiter(redis, 'test:', { logger: log, redisTimeoutMs: 300 });
    await spend(limiter, 'k', 2);
    expect(log.warns).toHaveLength(1);
    redis.emit('ready');
    expect(limiter.fallingBack).toBe(false);
    expect(log.infos).toEqual([expect.stringMatching(/Redis is back/)]);
    await spend(limiter, 'k', 2);
    expect(log.warns).toHaveLength(2);
  });
});

const REDIS_URL = process.env['REDIS_URL'];
describe.skipIf(!REDIS_URL)('RateLimiter with a live Redis', () => {
  it('counts in Redis, shared between limiters of one prefix, with no fallback', async () => {
    const redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    await new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));
    const prefix = `test-${process.pid}-${Date.now()}:`;
    const log = recorder();
    const one = new RateLimiter(redis, prefix, { logger: log });
    const two = new RateLimiter(redis, prefix, { logger: log });
    expect(await one.consume('k', 3)).toBe(true);
    expect(await two.consume('k', 3)).toBe(true);
    expect(await one.consume('k', 3)).toBe(true);
    expect(await two.consume('k', 3)).toBe(false);
    expect(one.fallingBack || two.fallingBack).toBe(false);
    expect(log.warns).toEqual([]);
  });
});
