import type { DfyConciergeEnrolmentRow, DfyDealRow } from '../../../db/schema.ts';
import type { Repos } from '../../../repos.ts';
import { conciergeFeeCents } from './concierge-fee.ts';
import type { DealState } from '../deals/deal-model.ts';
import type { ModeKind } from './dfy-modes.repo.ts';
import type { PortfolioSettings } from '../deals/dfy.rules.ts';
import { resolveMode, type ResolvedMode, type Toggles } from './modes.ts';

/** A deal or a machine whose mode is asked for, with its placement: the deal and the machine it pins. */
export interface ModeSubject {
  kind: ModeKind;
  /** The deal id, or the machine's id. */
  subjectId: string;
  operatorId: string;
  deal: DfyDealRow | null;
  machineId: string | null;
}

export interface SubjectMode {
  mode: ResolvedMode;
  /** The subject's own toggles (its partner's also count in `mode`). */
  toggles: Toggles;
  enrolments: DfyConciergeEnrolmentRow[];
}

async function togglesOf(repos: Repos, kind: ModeKind, subjectId: string): Promise<Toggles> {
  const json = await repos.dfyModes.toggles(kind, subjectId);
  return json ? (JSON.parse(json) as Toggles) : {};
}

export function dealSubject(row: DfyDealRow): ModeSubject {
  return { kind: 'deal', subjectId: row.id, operatorId: row.operator_id, deal: row, machineId: row.machine_id };
}

/** The machine a deal placed, as a mode subject (the inventory capability is the machine's). */
export function machineSubject(row: DfyDealRow & { machine_id: string }): ModeSubject {
  return { kind: 'machine', subjectId: row.machine_id, operatorId: row.operator_id, deal: row, machineId: row.machine_id };
}

/** Gathers the five levels for one subject from the store and resolves them (key rule 4). */
export async function subjectMode(repos: Repos, s: ModeSubject, settings: PortfolioSettings): Promise<SubjectMode> {
  const toggles = await togglesOf(repos, s.kind, s.subjectId);
  // the toggle level reads the subject's own toggle first, then its placement partner's (deal ↔ machine)
  const partner =
    s.kind === 'deal' ? (s.machineId ? await togglesOf(repos, 'machine', s.machineId) : {}) : s.deal ? await togglesOf(repos, 'deal', s.deal.id) : {};
  const enrolments = await repos.dfyModes.enrolmentsOf(s.deal?.id ?? null, s.machineId);
  const mode = resolveMode({
    conciergeActive: enrolments.some((e) => e.ended_at === null),
    toggles: { ...partner, ...toggles },
    dealAutopilot: s.deal ? (JSON.parse(s.deal.state_json) as DealState).autopilot : null,
    capabilityDefaults: settings.capabilityDefaults,
    autopilot: settings.autopilot,
  });
  return { mode, toggles, enrolments };
}

/** Concierge fees of an operator's placements accrued in [since, now] (the month-to-date cost line). */
export async function conciergeFeesSince(repos: Repos, operatorId: string, since: number, now: number): Promise<number> {
  const byPlacement = new Map<string, DfyConciergeEnrolmentRow[]>();
  for (const e of await repos.dfyModes.enrolmentsSince(operatorId, since)) {
    const key = e.deal_id ?? e.machine_id ?? e.id;
    byPlacement.set(key, [...(byPlacement.get(key) ?? []), e]);
  }
  let cents = 0;
  for (const rows of byPlacement.values()) cents += conciergeFeeCents(periodsOf(rows), now, since);
  return cents;
}

export function periodsOf(rows: readonly DfyConciergeEnrolmentRow[]) {
  return rows.map((e) => ({ from: Number(e.enrolled_at), to: e.ended_at === null ? null : Number(e.ended_at) }));
}
