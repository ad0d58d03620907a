import type { Clock } from '@vend/protocol';
import type { PortfolioSettings } from '../dfy/deals/dfy.rules.ts';
import type { DfyDealRow } from '../../db/schema.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Parsed } from '../../http/route.ts';
import type { AppStore } from '../../repos.ts';
import type { NegotiationService } from '../negotiation/negotiation.service.ts';
import type { OutreachService } from '../outreach/outreach.service.ts';
import { autoApproval, autoApproveWindowStart } from '../dfy/portfolio/autopilot.ts';
import { TERMINAL_STAGES, type DealStage } from '../dfy/deals/deal-vocabulary.ts';
import type { DfyInventoryService } from '../dfy/inventory/dfy-inventory.service.ts';
import type { TickResult } from '../dfy/deals/dfy.schemas.ts';
import type { DfyService } from '../dfy/deals/dfy.service.ts';
import { dealSubject, subjectMode } from '../dfy/modes/mode-inputs.ts';
import { capabilitiesOn } from '../dfy/modes/modes.ts';

export interface DfyAutopilotDeps {
  store: AppStore;
  clock: Clock;
  /** The deal's own moves (negotiation_target, the review into lease_chat, the sandbox shipment) and the settings. */
  dfy: Pick<DfyService, 'autopilotDeal' | 'settingsOf'>;
  /** Placement (the shortlist's top venue, accepted alone) and the outreach run's steps. */
  outreach: Pick<OutreachService, 'topShortlisted' | 'autoAccept' | 'autopilotPass'>;
  /** The sandbox venue persona's rounds of a negotiation an operator started. */
  negotiation: Pick<NegotiationService, 'autopilotStep'>;
  /** The inventory tick (its own bounds: autoInventory, the capability, the monthly cap, moneyThresholdUsd). */
  inventory: Pick<DfyInventoryService, 'tick'>;
}

/**
 * The done-for-you autopilot (spec 3 §1–§4, key rules 1, 2, 4, 8; docs/decisions/dfy-modes.md "The autopilot
 * in the background"): one tick steps each deal by what its resolved capabilities allow and the portfolio
 * settings bound — placement (the top shortlisted venue, alone only at ≥ autoApproveScore and under
 * maxAutoApprove a UTC day), outreach (the run's next touch when due), negotiation (raises negotiation_target;
 * steps a started sandbox negotiation), contracting (reviews converged terms: lease_chat raises lease_send),
 * install (sandbox shipment) — then the inventory tick. It never passes a confirm gate (negotiation start,
 * terms approval, lease send, payment): the transition table refuses the autopilot on each, so it raises the
 * checkpoint instead. `POST /autopilot/tick` (the caller's deals) and the dfy-autopilot loop (everyone's) run it.
 */
export class DfyAutopilotService {
  constructor(private readonly deps: DfyAutopilotDeps) {}

  /** `p`: an operator's call (its own deals; an admin's: all); null: the background loop (every operator's deals). */
  async tick(p: Principal | null): Promise<Parsed<typeof TickResult>> {
    const repos = this.deps.store.repos;
    const known = new Map<string, PortfolioSettings>();
    const settingsOf = async (operatorId: string): Promise<PortfolioSettings> => {
      let found = known.get(operatorId);
      if (!found) known.set(operatorId, (found = await this.deps.dfy.settingsOf(operatorId)));
      return found;
    };
    const out: Parsed<typeof TickResult> = {
      examined: 0,
      accepted: [],
      touches: [],
      negotiationSteps: [],
      reviewed: [],
      shipped: [],
      raised: [],
      waiting: [],
      gatesWaiting: [],
      conflicts: [],
      inventory: { examined: 0, queued: [], pendingApproval: [] },
    };
    for (const row of await repos.dfy.allDeals(p ? ownerFilter(p) : null)) {
      if (TERMINAL_STAGES.includes(row.stage as DealStage)) continue;
      try {
        await this.stepDeal(p, row, await settingsOf(row.operator_id), out);
      } catch (e) {
        // a deal changed under the tick (an operator's request in between): it waits for the next one; others go on
        if (!(e instanceof AppError && e.status === 409)) throw e;
        out.conflicts.push({ dealId: row.id, message: e.message });
      }
    }
    const inv = await this.deps.inventory.tick(p);
    out.inventory = {
      examined: inv.examined,
      queued: inv.ordered.filter((o) => o.status === 'queued').map((o) => o.id),
      pendingApproval: inv.ordered.filter((o) => o.status === 'pending_approval').map((o) => o.id),
    };
    return out;
  }

  /** One deal's passes, in the order a deal moves (each pass re-reads the stage the previous one left). */
  private async stepDeal(p: Principal | null, first: DfyDealRow, settings: PortfolioSettings, out: Parsed<typeof TickResult>): Promise<void> {
    const repos = this.deps.store.repos;
    // key rule 4: each pass acts only where the deal's resolved capability is on
    const on = capabilitiesOn((await subjectMode(repos, dealSubject(first), settings)).mode);
    const anyOn = Object.values(on).some(Boolean);
    if (anyOn) out.examined++;
    const dealId = first.id;
    const stage = async () => (await repos.dfy.deal(dealId))!.stage as DealStage;

    if (on.placement && (await stage()) === 'shortlisting') {
      const top = await this.deps.outreach.topShortlisted(dealId);
      if (top) {
        const refusal = await this.deps.outreach.autoAccept(dealId, top.venueId, async (tx, operatorId) => {
          // the operator's settings row, locked: two ticks cannot both take the last auto-approval
          const json = await tx.dfy.lockSettings(operatorId);
          const bounds = json ? { ...settings, ...(JSON.parse(json) as PortfolioSettings) } : settings;
          const now = this.deps.clock.now();
          const v = autoApproval(top.score, bounds, await tx.dfy.autoApprovalsSince(operatorId, autoApproveWindowStart(now)));
          return v.ok ? null : v.reason;
        });
        if (refusal === null) out.accepted.push({ dealId, venueId: top.venueId, venueName: top.name, score: top.score });
        else out.waiting.push({ dealId, stage: await stage(), checkpoint: 'scout_outreach', reason: refusal });
      }
    }
    if ((await stage()) === 'outreach') {
      // with outreach off a started run raises mode_resume: the pass runs for every outreach deal
      const r = await this.deps.outreach.autopilotPass(dealId, on.outreach);
      if (r === 'touched') out.touches.push(dealId);
      if (on.negotiation && (await this.deps.negotiation.autopilotStep(dealId)) === 'stepped') out.negotiationSteps.push(dealId);
    }
    if (!anyOn) return;
    const d = await this.deps.dfy.autopilotDeal(p, (await repos.dfy.deal(dealId))!, on);
    for (const kind of d.raised) out.raised.push({ dealId, kind });
    if (d.reviewed) out.reviewed.push(dealId);
    if (d.shipped) out.shipped.push(dealId);
    for (const g of d.gatesWaiting) out.gatesWaiting.push({ dealId, ...g });
  }
}
