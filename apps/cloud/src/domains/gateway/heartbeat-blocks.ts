import { hash } from 'node:crypto';
import type { BlockedReport, DeferralReport, HeartbeatRequest } from '@vend/protocol';
import { formatTimestamp } from '../../http/time-format.ts';
import type { Selectable } from 'kysely';
import type { CabinetStatusTable } from '../../db/schema.ts';

interface StoredDeferral extends DeferralReport {
  reportedAt: number;
}
interface StoredBlocked extends BlockedReport {
  reportedAt: number;
}

function parseJson<T>(json: string | null | undefined): T | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

/** A deferral or blocked block after it cleared: what lets the same block coming back keep its first report time. */
interface KeptBlock {
  version: string;
  minFrom?: string | undefined;
  firstAt: number;
  clearedAt: number;
}

/** The same block: same version, and (blocked) the same floor. A deferral's reason and counters may change. */
function sameBlock(a: { version: string; minFrom?: string | undefined }, b: { version: string; minFrom?: string | undefined }): boolean {
  return a.version === b.version && (a.minFrom ?? null) === (b.minFrom ?? null);
}

/**
 * The stored columns of one block after a heartbeat. Reported: `firstAt` carries over from the stored
 * block when it is the same one, or from the kept (cleared) one when that cleared at most `recallMs`
 * ago; otherwise it is now. Cleared: the block is kept with its first time and the clearing time.
 * `kept` undefined leaves the stored kept block as it is.
 */
export function carryBlock<T extends { version: string; minFrom?: string | undefined }>(
  report: T | null,
  storedJson: string | null | undefined,
  storedFirstAt: number | null | undefined,
  keptJson: string | null | undefined,
  now: number,
  recallMs: number,
): { json: string | null; firstAt: number | null; kept?: string | null } {
  const prev = parseJson<T & { reportedAt: number }>(storedJson);
  const prevFirstAt = prev ? (storedFirstAt ?? prev.reportedAt ?? now) : null;
  if (report) {
    const kept = parseJson<KeptBlock>(keptJson);
    let firstAt = now;
    if (prev && sameBlock(prev, report)) firstAt = prevFirstAt ?? now;
    else if (!prev && kept && sameBlock(kept, report) && now - kept.clearedAt <= recallMs) firstAt = kept.firstAt;
    return { json: JSON.stringify({ ...report, reportedAt: now }), firstAt, ...(kept ? { kept: null } : {}) };
  }
  if (prev) {
    const kept: KeptBlock = {
      version: prev.version,
      ...(prev.minFrom !== undefined ? { minFrom: prev.minFrom } : {}),
      firstAt: prevFirstAt ?? now,
      clearedAt: now,
    };
    return { json: null, firstAt: null, kept: JSON.stringify(kept) };
  }
  return { json: null, firstAt: null };
}

/** What a heartbeat reports, as the short fingerprint stored with it (`cabinet_status.report_fp`). */
export function reportFingerprint(body: HeartbeatRequest): string {
  // the service-code block only when sent, so the fingerprints of heartbeats without one stay what they were
  const json = JSON.stringify([
    body.agentVersion ?? null,
    body.vmcVersion ?? null,
    body.deferring ?? null,
    body.blocked ?? null,
    body.capabilities ?? null,
    ...(body.serviceCode ? [body.serviceCode] : []),
    // likewise the revert report, only when sent
    ...(body.reverted ? [{ reverted: body.reverted }] : []),
    // and the architecture (migration 0037), only when sent
    ...(body.arch !== undefined ? [{ arch: body.arch }] : []),
  ]);
  // one shot, not a Hash object: on every heartbeat
  return hash('sha256', json, 'base64url');
}

/** The agent fleet view of a machine: its stored deferral and blocked blocks (null when clear). */
export function agentReportsOf(s: Selectable<CabinetStatusTable> | undefined) {
  const d = parseJson<StoredDeferral>(s?.deferring_json);
  const b = parseJson<StoredBlocked>(s?.blocked_json);
  return {
    deferring: d
      ? {
          version: d.version,
          count: d.count,
          seconds: d.seconds,
          reason: d.reason,
          reportedAt: formatTimestamp(d.reportedAt)!,
          firstReportedAt: formatTimestamp(s?.deferring_first_at ?? d.reportedAt)!,
        }
      : null,
    blocked: b
      ? { version: b.version, minFrom: b.minFrom, count: b.count, seconds: b.seconds, firstReportedAt: formatTimestamp(s?.blocked_first_at ?? b.reportedAt)! }
      : null,
  };
}
