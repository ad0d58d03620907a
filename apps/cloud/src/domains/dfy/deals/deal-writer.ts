import { newId } from '../../../crypto/ids.ts';
import type { DfyDealRow } from '../../../db/schema.ts';
import { AppError, conflict } from '../../../http/errors.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Repos } from '../../../repos.ts';
import {
  RAISED_ON_ENTRY,
  decideAction,
  decideMove,
  supersededAt,
  type Actor,
  type CheckpointKind,
  type DealFacts,
  type DealStage,
  type Trigger,
} from './deal-graph.ts';
import { applyEvent, factsOf, type DealEvent, type DealEventData, type DealState, type TouchChannel } from './deal-model.ts';

/** A refused move or action: 409 naming the stage and what it needs (a gate refused to a background tick too). */
export class MoveRefused extends AppError {
  constructor(
    message: string,
    readonly reason: 'gate' | 'illegal' | 'needs',
  ) {
    super('conflict', message);
  }
}

/**
 * One deal inside one transaction: every change goes through here, so each is an event appended to the
 * log and folded into the stored state, and every stage change is decided by the transition table.
 * `flush()` writes the events and the new state; the caller records the audit entry.
 */
export class DealWriter {
  private state: DealState | null;
  private seq: number;
  private readonly pending: DealEvent[] = [];
  /** Checkpoints raised through this writer, not yet handed to `takeRaised` (the fleet events). */
  private readonly raised: { checkpointId: string; kind: CheckpointKind; detail: string | null }[] = [];

  private constructor(
    private readonly tx: Repos,
    readonly dealId: string,
    readonly operatorId: string,
    private readonly row: DfyDealRow | null,
    private readonly now: number,
    private readonly actor: Actor,
    private readonly channel: TouchChannel,
    /** Record ids (random by default; the sandbox seed passes a deterministic one). */
    private readonly mintId: (prefix: string) => string = (prefix) => newId(prefix, now),
  ) {
    this.state = row ? (JSON.parse(row.state_json) as DealState) : null;
    this.seq = row?.seq ?? 0;
  }

  /** A new deal (its `created` event and first move follow). */
  static create(tx: Repos, operatorId: string, now: number, actor: Actor, channel: TouchChannel = 'api', mintId?: (prefix: string) => string): DealWriter {
    const id = mintId ? mintId('deal') : newId('deal', now);
    return new DealWriter(tx, id, operatorId, null, now, actor, channel, mintId);
  }

  /** An existing deal, locked for the transaction. */
  static async open(tx: Repos, row: DfyDealRow, now: number, actor: Actor, channel: TouchChannel = 'api'): Promise<DealWriter> {
    const locked = (await tx.dfy.lockDeal(row.id)) ?? row;
    return new DealWriter(tx, locked.id, locked.operator_id, locked, now, actor, channel);
  }

  get deal(): DealState {
    if (!this.state) throw new Error('deal not created yet');
    return this.state;
  }
  get stage(): DealStage {
    return this.deal.stage;
  }

  facts(extra: Partial<Pick<DealFacts, 'installOnSite' | 'onboarded'>> = {}): DealFacts {
    return factsOf(this.state, extra);
  }

  /** Whether anything was appended since the deal was opened. */
  get changed(): boolean {
    return this.pending.length > 0;
  }

  /** Appends an event (folded at once into the state). */
  emit(data: DealEventData, opts: { actor?: Actor; channel?: TouchChannel; scriptVersion?: string | null } = {}): void {
    const e: DealEvent = {
      seq: ++this.seq,
      at: formatTimestamp(this.now)!,
      actor: opts.actor ?? this.actor,
      channel: opts.channel ?? this.channel,
      scriptVersion: opts.scriptVersion ?? null,
      data,
    };
    this.state = applyEvent(this.state, this.dealId, e);
    this.pending.push(e);
  }

  open(kind: CheckpointKind): { kind: CheckpointKind; id: string } | undefined {
    return this.state?.openCheckpoints.find((c) => c.kind === kind);
  }

  /** Raises a checkpoint on the deal (one open checkpoint per kind: raising an open kind again is a no-op). */
  async raise(kind: CheckpointKind, detail: string | null = null): Promise<string> {
    const have = this.open(kind);
    if (have) return have.id;
    const id = this.mintId('chk');
    this.emit({ type: 'checkpoint_raised', kind, checkpointId: id });
    // the deal row must exist before its checkpoint (foreign key): a new deal is flushed first
    await this.ensureRow();
    await this.tx.dfy.insertCheckpoint({
      id,
      deal_id: this.dealId,
      operator_id: this.operatorId,
      kind,
      resolved: 0,
      detail,
      raised_by: this.actor,
      raised_at: this.now,
      resolved_by: null,
      resolved_at: null,
    });
    this.raised.push({ checkpointId: id, kind, detail });
    return id;
  }

  /** The checkpoints raised since the last call (each reported once). */
  takeRaised(): { checkpointId: string; kind: CheckpointKind; detail: string | null }[] {
    return this.raised.splice(0);
  }

  /** Resolves the deal's open checkpoint of `kind`; false when none is open. */
  async resolve(kind: CheckpointKind, by: string): Promise<boolean> {
    const c = this.open(kind);
    if (!c) return false;
    await this.tx.dfy.resolveCheckpoint(c.id, by, this.now);
    this.emit({ type: 'checkpoint_resolved', kind, checkpointId: c.id, by });
    return true;
  }

  /**
   * Moves the deal by `trigger` if the transition table allows it (else 409 naming the stage and what the
   * move needs), resolving the checkpoints the edge needs and raising those of the stage entered.
   */
  async move(
    trigger: Trigger,
    req: { confirm?: boolean; to?: DealStage; facts?: Partial<Pick<DealFacts, 'installOnSite' | 'onboarded'>> } = {},
  ): Promise<DealStage> {
    const verdict = decideMove(this.facts(req.facts), {
      trigger,
      actor: this.actor,
      confirm: req.confirm === true,
      ...(req.to !== undefined ? { to: req.to } : {}),
    });
    if (!verdict.ok) throw new MoveRefused(verdict.message, verdict.reason);
    const e = verdict.transition;
    for (const k of e.checkpoints) await this.resolve(k, trigger);
    this.emit({ type: 'moved', trigger, from: this.state?.stagesVisited.length ? this.stage : null, to: e.to });
    for (const c of [...this.deal.openCheckpoints]) {
      if (e.to === 'cancelled') await this.resolve(c.kind, 'cancel');
      else if (supersededAt(c.kind, e.to)) await this.resolve(c.kind, 'superseded');
    }
    for (const k of RAISED_ON_ENTRY[e.to] ?? []) await this.raise(k);
    return e.to;
  }

  /** Refuses an action the deal's stage or the actor does not allow (409). */
  checkAction(name: string, confirm: boolean): void {
    const v = decideAction(this.stage, name, this.actor, confirm);
    if (!v.ok) throw new MoveRefused(v.message, v.reason);
  }

  private rowWritten = false;
  /** Writes a new deal's row (before rows that point at it); a no-op for an existing deal. */
  async ensureRow(): Promise<void> {
    if (this.row || this.rowWritten) return;
    await this.tx.dfy.insertDeal({
      id: this.dealId,
      operator_id: this.operatorId,
      stage: this.stage,
      state_json: JSON.stringify(this.deal),
      seq: 0,
      machine_id: null,
      created_at: this.now,
      updated_at: this.now,
    });
    this.rowWritten = true;
  }

  /** Writes the pending events and the new state. */
  async flush(set: { machineId?: string } = {}): Promise<DealState> {
    await this.ensureRow();
    for (const e of this.pending) await this.tx.dfy.appendEvent(this.dealId, e.seq, this.now, JSON.stringify(e));
    this.pending.length = 0;
    await this.tx.dfy.saveDeal(this.dealId, {
      stage: this.stage,
      state_json: JSON.stringify(this.deal),
      seq: this.seq,
      updated_at: this.now,
      ...(set.machineId !== undefined ? { machine_id: set.machineId } : {}),
    });
    return this.deal;
  }
}

/** 409 unless `cond`. */
export function require409(cond: unknown, message: string): asserts cond {
  if (!cond) throw conflict(message);
}
