import { describe, expect, it } from 'vitest';
import { overWindow, parseMetrics } from './cloud-metrics.ts';

const before = `# HELP nodejs_gc_duration_seconds x
nodejs_gc_duration_seconds_bucket{le="0.1",kind="minor"} 10
nodejs_gc_duration_seconds_bucket{le="1",kind="minor"} 10
nodejs_gc_duration_seconds_count{kind="minor"} 10
nodejs_gc_duration_seconds_bucket{le="0.1",kind="major"} 1
nodejs_gc_duration_seconds_bucket{le="1",kind="major"} 1
nodejs_gc_duration_seconds_count{kind="major"} 1
vend_http_request_duration_seconds_bucket{le="0.05",route="/cabinet/heartbeat",method="POST",status="200"} 100
vend_http_request_duration_seconds_count{route="/cabinet/heartbeat",method="POST",status="200"} 100
vend_http_request_duration_seconds_bucket{le="0.05",route="/cabinet/pending",method="GET",status="200"} 0
vend_http_request_duration_seconds_count{route="/cabinet/pending",method="GET",status="200"} 40
`;
const after = `nodejs_eventloop_lag_p99_seconds 0.012
vend_sqlite_checkpoint_max_seconds 0.004
nodejs_eventloop_lag_max_seconds 2.1
nodejs_gc_duration_seconds_bucket{le="0.1",kind="minor"} 14
nodejs_gc_duration_seconds_bucket{le="1",kind="minor"} 15
nodejs_gc_duration_seconds_count{kind="minor"} 15
nodejs_gc_duration_seconds_bucket{le="0.1",kind="major"} 1
nodejs_gc_duration_seconds_bucket{le="1",kind="major"} 1
nodejs_gc_duration_seconds_count{kind="major"} 2
vend_loop_tick_max_seconds{loop="presence-sweep"} 1.9
vend_loop_tick_max_seconds{loop="dispense-decision"} 0.002
vend_http_request_duration_seconds_bucket{le="0.05",route="/cabinet/heartbeat",method="POST",status="200"} 150
vend_http_request_duration_seconds_count{route="/cabinet/heartbeat",method="POST",status="200"} 153
vend_http_request_duration_seconds_bucket{le="0.05",route="/cabinet/pending",method="GET",status="200"} 0
vend_http_request_duration_seconds_count{route="/cabinet/pending",method="GET",status="200"} 80
`;

describe('overWindow', () => {
  it("reads the window's event loop and longest tick, and the differences of the GC and request histograms", () => {
    const w = overWindow(parseMetrics(before), parseMetrics(after));
    expect(w.loopP99Ms).toBeCloseTo(12);
    expect(w.loopMaxMs).toBeCloseTo(2100);
    // six collections: one minor and one major over 100 ms, the major one also over 1 s
    expect([w.gcs, w.gcOver100ms, w.gcOver1s]).toEqual([6, 2, 1]);
    expect([w.tickMaxMs, w.tickMaxLoop]).toEqual([1900, 'presence-sweep']);
    // three heartbeats answered in more than 50 ms; the long poll's holds are not slow answers
    expect(w.slowAnswers).toEqual({ '/cabinet/heartbeat': 3 });
    expect(w.checkpointMaxMs).toBeCloseTo(4);
    expect(overWindow(parseMetrics(before), parseMetrics(before)).checkpointMaxMs).toBeNaN();
  });
});
