import { CAPABILITIES } from '../deals/dfy.rules.ts';

export type Capability = (typeof CAPABILITIES)[number];
export type Toggles = Partial<Record<Capability, boolean>>;

/** The five levels of key rule 4, highest first: the first with an opinion decides a capability. */
export const MODE_LEVELS = ['concierge', 'toggle', 'deal_autopilot', 'portfolio_default', 'autopilot'] as const;
export type ModeLevel = (typeof MODE_LEVELS)[number];
export type ModeLabel = 'auto' | 'manual' | 'hybrid';

/** Everything the resolver reads, already gathered for one deal or machine. */
export interface ModeInputs {
  /** Concierge is active on the placement (the deal or its linked machine). */
  conciergeActive: boolean;
  /** The subject's own toggles; an absent capability has no toggle. */
  toggles: Toggles;
  /** The deal's autopilot override (a machine reads its linked deal's); null follows the portfolio. */
  dealAutopilot: boolean | null;
  /** Portfolio per-capability defaults; null (or absent) defers to the master switch. */
  capabilityDefaults: Partial<Record<Capability, boolean | null>>;
  /** The portfolio's autopilot master switch. */
  autopilot: boolean;
}

export interface ResolvedMode {
  label: ModeLabel;
  capabilities: Record<Capability, { on: boolean; decidedBy: ModeLevel }>;
}

/** Key rule 4: one capability, decided by the highest level that has an opinion. Pure. */
export function resolveCapability(c: Capability, i: ModeInputs): { on: boolean; decidedBy: ModeLevel } {
  if (i.conciergeActive) return { on: true, decidedBy: 'concierge' };
  const toggle = i.toggles[c];
  if (toggle !== undefined) return { on: toggle, decidedBy: 'toggle' };
  if (i.dealAutopilot !== null) return { on: i.dealAutopilot, decidedBy: 'deal_autopilot' };
  const byDefault = i.capabilityDefaults[c];
  if (byDefault !== undefined && byDefault !== null) return { on: byDefault, decidedBy: 'portfolio_default' };
  return { on: i.autopilot, decidedBy: 'autopilot' };
}

/** All six capabilities and the label: all on is Auto, all off Manual, mixed Hybrid. */
export function resolveMode(i: ModeInputs): ResolvedMode {
  const capabilities = Object.fromEntries(CAPABILITIES.map((c) => [c, resolveCapability(c, i)])) as ResolvedMode['capabilities'];
  return { label: modeLabel(CAPABILITIES.map((c) => capabilities[c].on)), capabilities };
}

export function modeLabel(on: readonly boolean[]): ModeLabel {
  if (on.every(Boolean)) return 'auto';
  return on.some(Boolean) ? 'hybrid' : 'manual';
}

/** Just the on/off of each capability (what the ticks read). */
export function capabilitiesOn(m: ResolvedMode): Record<Capability, boolean> {
  return Object.fromEntries(CAPABILITIES.map((c) => [c, m.capabilities[c].on])) as Record<Capability, boolean>;
}
