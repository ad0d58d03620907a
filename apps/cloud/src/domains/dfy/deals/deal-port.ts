import type { Raiser } from './checkpoint-kinds.ts';
import { factsOf, type DealEventData, type DealState, type TouchChannel } from './deal-model.ts';
import type { Actor, CheckpointKind, DealStage } from './deal-vocabulary.ts';
import { decideOperation, type OperationName } from './operations.ts';

/**
 * The deal core's port for the layers above it (negotiation, outreach, the autopilot): what they may read
 * and do on one deal inside one change (`DfyService.amendDeal`). Everything goes through the tables — an
 * operation is decided by the operations table and its move by the transition table, a checkpoint by the
 * checkpoint-kind table — and the only events they append are their own (outreach's touches, deliveries,
 * replies and opt-outs). The writer behind it (deal-writer.ts) stays the core's.
 */

/** The events outreach appends to a deal's log. */
export type OutreachEvent = Extract<DealEventData, { type: 'outreach_started' | 'outreach_touch' | 'outreach_delivery' | 'opted_out' | 'reply_received' }>;
/** The event that makes an operation's move possible (the venue chosen, the lease signed, the machine paid, …). */
export type MoveEvent = Extract<DealEventData, { type: 'venue_chosen' | 'preorder_paid' | 'lease_signed' | 'machine_paid' | 'tracking_recorded' }>;

export interface OperationRequest {
  /** `confirm: true` on the request. */
  confirm?: boolean;
  /** Appended once the operation is allowed, before its move is decided. */
  event?: MoveEvent;
}

export interface DealChange {
  readonly dealId: string;
  readonly operatorId: string;
  readonly stage: DealStage;
  readonly deal: DealState;
  open(kind: CheckpointKind): { kind: CheckpointKind; id: string } | undefined;
  /** Whether the tables let this change's actor run `op` now, its move included (nothing changes). */
  allows(op: OperationName, req?: OperationRequest): boolean;
  /** Runs `op` if the tables allow it (else 409 naming the stage and what it needs); answers the stage it moved to, if it moved. */
  act(op: OperationName, req?: OperationRequest): Promise<DealStage | null>;
  /** Raises a checkpoint as `by` where the checkpoint-kind table lets it; answers its id, or null when raising it was moot. */
  raise(kind: CheckpointKind, by: Raiser, detail?: string | null): Promise<string | null>;
  emit(data: OutreachEvent, opts?: { channel?: TouchChannel; scriptVersion?: string | null }): void;
}

/** Whether the operations table lets `actor` run `op` on the deal as it stands (read outside a change: a pre-check). */
export function dealAllows(deal: DealState, op: OperationName, actor: Actor): boolean {
  return decideOperation(factsOf(deal), op, actor, false).ok;
}

/** The words of the 409 the operations table gives `actor` asking for `op` on the deal (null: allowed). */
export function operationRefusal(deal: DealState, op: OperationName, actor: Actor): string | null {
  const v = decideOperation(factsOf(deal), op, actor, false);
  return v.ok ? null : v.message;
}
