import type { AgentFleetData, AgentFleetMachine, ReleaseRecord, RolloutData } from '@vend/protocol';

/** Plain-text renderings for people; `--json` prints the data as the cloud answered it. */

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export function describeRollout(r: RolloutData | null): string {
  if (!r) return 'no rollout';
  const reach = [r.canary.length ? `canary ${r.canary.join(',')}` : null, `${r.percent}% of the rest`].filter(Boolean).join(' + ');
  const extra = [
    r.allowDowngrade ? 'downgrades allowed' : null,
    r.phase === 'held' && r.holdReason ? `held: ${r.holdReason}` : null,
    r.note ? `note: ${r.note}` : null,
  ].filter(Boolean);
  return `rollout ${r.targetVersion} ${r.phase} — ${reach}${extra.length ? `; ${extra.join('; ')}` : ''}`;
}

function machineState(m: AgentFleetMachine): string {
  if (m.blocked) return `blocked on ${m.blocked.version} (needs ${m.blocked.minFrom}) since ${m.blocked.firstReportedAt}`;
  if (m.deferring) return `deferring ${m.deferring.version} ×${m.deferring.count} (${m.deferring.reason}) since ${m.deferring.firstReportedAt}`;
  if (m.offerVersion) return `offered ${m.offerVersion}${m.isFinalStep === false ? ' (rung)' : ''}`;
  return m.offerReason;
}

function counted(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([v, n]) => `${v}: ${n}`)
    .join(', ');
}

export function renderFleet(f: AgentFleetData): string {
  const versions = counted(f.byVersion);
  const head = [
    describeRollout(f.rollout),
    `target ${f.target ?? '-'}  total ${f.total}  eligible ${f.eligible}  on target ${f.onTarget}  pinned ${f.pinned}  deferring ${f.deferring}  blocked ${f.blocked}  no artifact ${f.noArtifact}`,
    `versions: ${versions || '-'}`,
    `architectures: ${counted(f.byArch) || '-'}`,
    '',
  ];
  const rows = f.machines.map((m) => [
    m.machineNo,
    m.agentVersion ?? '-',
    m.arch ?? '-',
    m.pin ? m.pin.version : '-',
    m.inCohort ? 'yes' : 'no',
    machineState(m),
  ]);
  return [...head, table(['MACHINE', 'VERSION', 'ARCH', 'PIN', 'COHORT', 'STATE'], rows)].join('\n') + '\n';
}

export function renderReleases(records: ReleaseRecord[]): string {
  const rows = records.map((r) => [
    String(r.sequence),
    r.version,
    r.minFrom ?? '-',
    r.migration ? 'yes' : 'no',
    r.artifacts.map((a) => a.arch).join(','),
    r.artifacts.map((a) => String(a.size)).join(','),
    r.offered ? 'yes' : 'no',
    r.publishedAt,
  ]);
  return table(['SEQ', 'VERSION', 'MIN FROM', 'MIGRATION', 'ARCHES', 'SIZE', 'OFFERED', 'PUBLISHED'], rows) + '\n';
}
