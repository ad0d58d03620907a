import type { CheckpointKind, DealStage } from './deal-vocabulary.ts';
import { TERMINAL_STAGES } from './deal-vocabulary.ts';
import type { MoveEvent } from './deal-port.ts';
import type { DealWriter } from './deal-writer.ts';
import { gatesWaiting } from './checkpoint-kinds.ts';
import type { CAPABILITIES } from './dfy.rules.ts';

export interface AutopilotMoves {
  raised: CheckpointKind[];
  shipped: boolean;
  reviewed: boolean;
  gatesWaiting: { stage: DealStage; needs: string }[];
}

/**
 * The deal's own part of an autopilot tick (the tick is DfyAutopilotService's), through a writer opened as
 * the autopilot — never as an operator. With `negotiation` on it raises negotiation_target where the
 * checkpoint-kind table lets the autopilot (an outreach deal whose negotiation has not started); with
 * `contracting` on it reviews converged terms where the transition table lets it (negotiation_review open:
 * the deal enters lease_chat, which raises lease_send; terms_approval stays open where rule 2 raised it);
 * with `install` on, in the sandbox, it records a sandbox shipment where the operations table lets it. Every
 * confirm gate is only reported as waiting: the tables refuse the autopilot on each of them.
 */
export async function autopilotMoves(w: DealWriter, on: Record<(typeof CAPABILITIES)[number], boolean>, sandbox: boolean): Promise<AutopilotMoves> {
  const out: AutopilotMoves = { raised: [], shipped: false, reviewed: false, gatesWaiting: [] };
  if (TERMINAL_STAGES.includes(w.stage)) return out;
  if (on.negotiation && (await w.raise('negotiation_target', 'autopilot', 'autopilot: ready to negotiate; starting needs a confirmed operator request'))) {
    out.raised.push('negotiation_target');
  }
  // key rule 4: with contracting off the converged negotiation stops here, without a lease checkpoint
  if (on.contracting && w.allowsMove('negotiation_reviewed')) {
    await w.move('negotiation_reviewed');
    out.reviewed = true;
    out.raised.push('lease_send');
  }
  const shipment: MoveEvent = { type: 'tracking_recorded', carrier: 'sandbox-freight', trackingNumber: `SBX${w.dealId.slice(-10).toUpperCase()}` };
  if (on.install && sandbox && w.allows('record_tracking', { event: shipment })) {
    await w.act('record_tracking', { event: shipment });
    out.shipped = true;
  }
  for (const needs of gatesWaiting(w.facts())) out.gatesWaiting.push({ stage: w.stage, needs });
  return out;
}
