import type { AppContext } from '../../context.ts';
import { seedSandbox } from '../../db/seed.ts';
import { sandboxSeedSteps } from '../../bootstrap.ts';
import { SandboxRepo } from './sandbox.repo.ts';
import type { Principal } from '../../http/principal.ts';
import { AppError } from '../../http/errors.ts';

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

export class SandboxService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new SandboxRepo(this.ctx.database.db);
  }

  async health(): Promise<{ db: string; redis: string }> {
    const db = await this.ctx.database.ping().then(
      () => 'ok',
      () => 'error',
    );
    let redis = 'disabled';
    if (this.ctx.redis) {
      redis = await this.ctx.redis.ping().then(
        (r) => (r === 'PONG' ? 'ok' : 'error'),
        () => 'error',
      );
    }
    return { db, redis };
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
      uptimeSeconds: Math.floor((this.ctx.clock.now() - this.ctx.startedAt) / 1000),
      mode: this.ctx.config.mode,
      overall: pass ? 'pass' : 'fail',
      dataset,
      auth: { apiKeys, oauthClients, cognitoIssuer: this.ctx.config.idp?.issuer ?? null },
      selfTest,
    };
  }

  async persistence() {
    const d = this.ctx.database;
    const counts: Record<string, number> = {};
    for (const table of ['operators', 'machines', 'aisles', 'orders', 'payment_terminals', 'audit_log'] as const) counts[table] = await this.repo.count(table);
    return { backend: d.dialect, describe: d.describe, active: true, counts, writeFailures: this.ctx.metrics.writeFailures };
  }

  /**
   * Restores the seed fleet in one transaction. Orders written since the seed are money records:
   * re-applied to their machine (now owned by the seed owner) unless `wipeMoney`.
   */
  async reset(by: Principal, wipeMoney: boolean): Promise<{ reset: true }> {
    if (this.ctx.config.mode !== 'sandbox') throw new AppError('conflict', 'Reset is available only in sandbox mode');
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new SandboxRepo(trx);
      const kept = wipeMoney ? [] : await repo.nonSeedOrders();
      await repo.wipe();
      await seedSandbox(trx, this.ctx.clock.now(), this.ctx.sealer, sandboxSeedSteps(this.ctx.database.dialect));
      const owners = new Map((await repo.machineOwners()).map((m) => [m.id, m.operator_id]));
      const reapply = kept.filter((o) => owners.has(o.machine_id)).map((o) => ({ ...o, operator_id: owners.get(o.machine_id) ?? null }));
      for (let i = 0; i < reapply.length; i += 200)
        await trx
          .insertInto('orders')
          .values(reapply.slice(i, i + 200))
          .execute();
      await this.ctx.audit.record(trx, by, wipeMoney ? 'sandbox.reset.wipe_money' : 'sandbox.reset', 'sandbox');
    });
    return { reset: true };
  }
}
