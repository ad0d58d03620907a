import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../db/seed.ts';
import { DIALECTS, call, suiteServer } from '../testing/harness.ts';
import { WALK_EVERY_HANDLE } from './metrics.ts';

const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };

/** One sample's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(DIALECTS)('GET /metrics (%s)', (dialect) => {
  const t = suiteServer(dialect);

  it('is for admins only: 401 without a key, 403 for an operator', async () => {
    expect((await call(t.url, 'GET', '/metrics')).status).toBe(401);
    expect((await call(t.url, 'GET', '/metrics', { headers: alice })).status).toBe(403);
  });

  it('counts requests by route pattern (never the raw path) and status, with latency histograms', async () => {
    await call(t.url, 'GET', '/health');
    await call(t.url, 'GET', '/api/v1/machines/SBX-ALICE-0001', { headers: alice });
    await call(t.url, 'GET', '/api/v1/machines/SBX-BOB-0001', { headers: alice }); // not hers: 404
    await call(t.url, 'GET', '/no/such/route');
    const r = await call(t.url, 'GET', '/metrics', { headers: admin });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = r.text;
    expect(sample(m, 'vend_http_requests_total{route="/health",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'vend_http_requests_total{route="/api/v1/machines/:machineNo",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'vend_http_requests_total{route="/api/v1/machines/:machineNo",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'vend_http_requests_total{route="unmatched",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(m).not.toContain('SBX-ALICE-0001');
    expect(sample(m, 'vend_http_request_duration_seconds_count{route="/health",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(m).toMatch(/vend_http_request_duration_seconds_bucket\{le="0\.05",route="\/health",method="GET",status="200"\} \d+/);
  });

  it("reports each loop's longest tick since the previous scrape, then starts over", async () => {
    await t.services.jobs.dispenseDecision.tick();
    const first = (await call(t.url, 'GET', '/metrics', { headers: admin })).text;
    expect(sample(first, 'vend_loop_tick_max_seconds{loop="dispense-decision"}')).toBeGreaterThan(0);
    const second = (await call(t.url, 'GET', '/metrics', { headers: admin })).text;
    expect(sample(second, 'vend_loop_tick_max_seconds{loop="dispense-decision"}')).toBe(0);
    // a SQLite file's checkpoints run on their worker thread (timed); PostgreSQL has none
    if (dialect === 'sqlite') expect(sample(second, 'vend_sqlite_checkpoint_max_seconds')).toBeGreaterThanOrEqual(0);
    else expect(sample(second, 'vend_sqlite_checkpoint_max_seconds')).toBeUndefined();
  });

  it('reports held long polls, the loops with their leader state, and process metrics', async () => {
    await t.services.jobs.dispenseDecision.tick();
    await t.services.jobs.dfyOnboarding.tick();
    const m = (await call(t.url, 'GET', '/metrics', { headers: admin })).text;
    expect(sample(m, 'vend_long_polls_held')).toBe(0);
    expect(sample(m, 'vend_loop_leader{loop="dispense-decision"}')).toBe(1);
    expect(sample(m, 'vend_loop_ticks_total{loop="dispense-decision"}')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'vend_loop_errors_total{loop="refund-sweep"}')).toBe(0);
    // every loop of the replica is there, the done-for-you onboarding (added since) included
    expect(sample(m, 'vend_loop_ticks_total{loop="dfy-onboarding"}')).toBeGreaterThanOrEqual(1);
    expect(sample(m, 'vend_loop_errors_total{loop="dfy-onboarding"}')).toBe(0);
    expect(sample(m, 'vend_draining')).toBe(0);
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // the scrape that follows the first registers the process's event-loop delay and GC figures the fleet bench reads
    const again = (await call(t.url, 'GET', '/metrics', { headers: admin })).text;
    expect(sample(again, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0);
    expect(again).toContain('nodejs_gc_duration_seconds');
    // nothing that walks every handle or open file on the event loop at each scrape; the open files counted off it
    for (const name of WALK_EVERY_HANDLE.filter((n) => n !== 'process_open_fds')) expect(again).not.toContain(`${name} `);
    if (process.platform === 'linux') expect(sample(again, 'process_open_fds')).toBeGreaterThan(5);
    if (dialect === 'postgres') expect(sample(m, 'vend_store_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    else expect(m).not.toContain('vend_store_pool_connections{');
    // each cross-replica push listener (LISTEN/NOTIFY on PostgreSQL); none on SQLite without Redis
    const listening = ['pending', 'credentials'].map((c) => sample(m, `vend_push_listening{channel="${c}"}`));
    expect(listening).toEqual(dialect === 'postgres' ? [1, 1] : [undefined, undefined]);
  });
});
