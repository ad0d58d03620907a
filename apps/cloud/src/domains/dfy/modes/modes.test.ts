import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../deals/dfy.rules.ts';
import { modeLabel, resolveCapability, resolveMode, type ModeInputs } from './modes.ts';

const TRI = [undefined, true, false] as const;
const NULLABLE = [null, true, false] as const;

/** Every combination of the five levels for one capability: 2 × 3 × 3 × 3 × 2 = 108 rows. */
function* everyCombination() {
  for (const conciergeActive of [false, true])
    for (const toggle of TRI)
      for (const dealAutopilot of NULLABLE)
        for (const byDefault of NULLABLE) for (const autopilot of [false, true]) yield { conciergeActive, toggle, dealAutopilot, byDefault, autopilot };
}

describe('mode resolver (spec 3 key rule 4)', () => {
  it('decides each capability by the first level with an opinion, over all 108 combinations', () => {
    let rows = 0;
    for (const row of everyCombination()) {
      const inputs: ModeInputs = {
        conciergeActive: row.conciergeActive,
        toggles: row.toggle === undefined ? {} : { negotiation: row.toggle },
        dealAutopilot: row.dealAutopilot,
        capabilityDefaults: { negotiation: row.byDefault },
        autopilot: row.autopilot,
      };
      // the expected answer written as the spec's ordered list: (level, opinion) pairs, undefined = no opinion
      const levels = [
        ['concierge', row.conciergeActive ? true : undefined],
        ['toggle', row.toggle],
        ['deal_autopilot', row.dealAutopilot ?? undefined],
        ['portfolio_default', row.byDefault ?? undefined],
        ['autopilot', row.autopilot],
      ] as const;
      const [decidedBy, on] = levels.find(([, v]) => v !== undefined)!;
      expect(resolveCapability('negotiation', inputs), JSON.stringify(row)).toEqual({ on, decidedBy });
      rows++;
    }
    expect(rows).toBe(108);
  });

  it('reads only the capability asked for: a toggle on one leaves the others to the lower levels', () => {
    const m = resolveMode({
      conciergeActive: false,
      toggles: { inventory: false },
      dealAutopilot: null,
      capabilityDefaults: { install: false },
      autopilot: true,
    });
    expect(m.capabilities.inventory).toEqual({ on: false, decidedBy: 'toggle' });
    expect(m.capabilities.install).toEqual({ on: false, decidedBy: 'portfolio_default' });
    expect(m.capabilities.placement).toEqual({ on: true, decidedBy: 'autopilot' });
    expect(m.label).toBe('hybrid');
  });

  it('active concierge forces every capability on (Auto) even against toggles and a deal override of false', () => {
    const off = Object.fromEntries(CAPABILITIES.map((c) => [c, false]));
    const m = resolveMode({ conciergeActive: true, toggles: off, dealAutopilot: false, capabilityDefaults: off, autopilot: false });
    expect(m.label).toBe('auto');
    for (const c of CAPABILITIES) expect(m.capabilities[c].decidedBy).toBe('concierge');
  });

  it('labels all on Auto, all off Manual, mixed Hybrid', () => {
    expect(modeLabel([true, true, true, true, true, true])).toBe('auto');
    expect(modeLabel([false, false, false, false, false, false])).toBe('manual');
    expect(modeLabel([true, false, true, true, true, true])).toBe('hybrid');
  });
});
