import type { Redis } from 'ioredis';
import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { Sealer } from '../../crypto/secrets.ts';
import type { Database } from '../../db/database.ts';
import type { SeedStep } from '../../db/seed.ts';
import type { AuditEntry, AuditLog } from '../../http/audit.ts';
import { offsetOf, type Paging } from '../../http/paging.ts';
import type { AppStore } from '../../repos.ts';
import type { Principal } from '../../http/principal.ts';
import { AppError } from '../../http/errors.ts';
import type { Lifecycle } from '../../http/lifecycle.ts';

export interface SelfTestResult {
  check: string;
  target: string;
  status: number | null;
  expected: number;
  latencyMs: number;
  pass: boolean;
}

/** What readiness really calls on the service itself, and what it must answer. */
const SELF_TESTS = [
  { check: 'liveness', target: '/health', expected: 200 },
  { check: 'openapi document', target: '/openapi.json', expected: 200 },
  { check: 'credential required', target: '/api/v1/machines', expected: 401 },
  { check: 'unknown route enveloped', target: '/api/v1/no-such-route', expected: 404 },
] as const;

export interface SandboxDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Seals the seed's TOTP secret. */
  sealer: Sealer;
  config: Pick<Config, 'mode' | 'idp'>;
  /** The store's liveness and its label, for health and persistence. */
  database: Pick<Database, 'dialect' | 'describe' | 'ping'>;
  redis: Pick<Redis, 'ping' | 'status'> | null;
  /** When this process started (uptime). */
  startedAt: number;
  /** Counters the persistence status reports. */
  metrics: { writeFailures: number };
  /** Each domain's part of the seed, from the composition root (bootstrap.ts). */
  seedSteps: readonly SeedStep[];
  /** Whether this process is draining (shutdown under way), for readiness. */
  lifecycle: Pick<Lifecycle, 'draining'>;
}

/** How long /health and /ready wait for one dependency's answer. */
export const HEALTH_PROBE_MS = 1_000;

async function probe(check: () => Promise<void>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'error'>((resolve) => (timer = setTimeout(() => resolve('error'), HEALTH_PROBE_MS)));
  try {
    return await Promise.race([
      check().then(
        () => 'ok' as const,
        () => 'error' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The sandbox's own endpoints: health, readiness with a live self-test, persistence status, the audit log, and reset. */
export class SandboxService {
  constructor(private readonly deps: SandboxDeps) {}

  private get repo() {
    return this.deps.store.repos.sandbox;
  }

  /**
   * Each dependency answers within HEALTH_PROBE_MS or counts as down: a load balancer's probe must not hang on the
   * thing it asks about. A Redis client that is not connected is down at once (its queued ping would wait out
   * reconnection).
   */
  async health(): Promise<{ db: string; redis: string }> {
    const redisClient = this.deps.redis;
    const [db, redis] = await Promise.all([
      probe(() => this.deps.database.ping()),
      redisClient === null
        ? 'disabled'
        : redisClient.status !== 'ready'
          ? 'error'
          : probe(async () => {
              if ((await redisClient.ping()) !== 'PONG') throw new Error('unexpected ping reply');
            }),
    ]);
    return { db, redis };
  }

  /**
   * Readiness to take traffic (`GET /ready`): `draining` once shutdown began, `unavailable` while the store
   * does not answer, else `ready`. Unlike /health it is about this replica taking new work.
   */
  async ready(): Promise<{ status: 'ready' | 'draining' | 'unavailable'; db: string }> {
    if (this.deps.lifecycle.draining) return { status: 'draining', db: 'unchecked' };
    const { db } = await this.health();
    return { status: db === 'ok' ? 'ready' : 'unavailable', db };
  }

  async selfTest(baseUrl: string): Promise<SelfTestResult[]> {
    const results: SelfTestResult[] = [];
    for (const t of SELF_TESTS) {
      const started = performance.now();
      let status: number | null = null;
      try {
        const res = await fetch(baseUrl + t.target, { signal: AbortSignal.timeout(3000) });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = null;
      }
      results.push({ ...t, status, latencyMs: Math.round((performance.now() - started) * 10) / 10, pass: status === t.expected });
    }
    return results;
  }

  async readiness(baseUrl: string) {
    const [dataset, apiKeys, oauthClients, selfTest, health] = await Promise.all([
      this.repo.datasetCounts(),
      this.repo.count('api_keys'),
      this.repo.count('oauth_clients'),
      this.selfTest(baseUrl),
      this.health(),
    ]);
    const pass = selfTest.every((t) => t.pass) && health.db === 'ok' && health.redis !== 'error';
    return {
      service: 'vend-cloud',
      version: 'v1',
      uptimeSeconds: Math.floor((this.deps.clock.now() - this.deps.startedAt) / 1000),
      mode: this.deps.config.mode,
      overall: pass ? 'pass' : 'fail',
      dataset,
      auth: { apiKeys, oauthClients, cognitoIssuer: this.deps.config.idp?.issuer ?? null },
      selfTest,
    };
  }

  async persistence() {
    const d = this.deps.database;
    const counts: Record<string, number> = {};
    for (const table of ['operators', 'machines', 'aisles', 'orders', 'payment_terminals', 'audit_log'] as const) counts[table] = await this.repo.count(table);
    return { backend: d.dialect, describe: d.describe, active: true, counts, writeFailures: this.deps.metrics.writeFailures };
  }

  /** One page of the audit log, newest first. */
  async audit(q: Paging): Promise<{ total: number; records: AuditEntry[] }> {
    return this.deps.audit.list(this.deps.store.repos, q.size, offsetOf(q));
  }

  /**
   * Restores the seed fleet in one transaction. Orders written since the seed are money records:
   * re-applied to their machine (now owned by the seed owner) unless `wipeMoney`.
   */
  async reset(by: Principal, wipeMoney: boolean): Promise<{ reset: true }> {
    if (this.deps.config.mode !== 'sandbox') throw new AppError('conflict', 'Reset is available only in sandbox mode');
    await this.deps.store.transaction(async (tx) => {
      const repo = tx.sandbox;
      const kept = wipeMoney ? [] : await repo.nonSeedOrders();
      await repo.clear();
      await repo.seed(this.deps.clock.now(), this.deps.sealer, this.deps.seedSteps);
      const owners = new Map((await repo.machineOwners()).map((m) => [m.id, m.operator_id]));
      const reapply = kept.filter((o) => owners.has(o.machine_id)).map((o) => ({ ...o, operator_id: owners.get(o.machine_id) ?? null }));
      await tx.orders.insertOrders(reapply);
      await this.deps.audit.record(tx, by, wipeMoney ? 'sandbox.reset.wipe_money' : 'sandbox.reset', 'sandbox');
    });
    return { reset: true };
  }
}
