import { newId } from '../../../crypto/ids.ts';
import type { DfyDealRow } from '../../../db/schema.ts';
import { AppError } from '../../../http/errors.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Repos } from '../../../repos.ts';
import { RAISED_ON_ENTRY, decideRaise, decideResolve, supersededAt, type Raiser, type Resolver } from './checkpoint-kinds.ts';
import { applyEvent, factsOf, type DealEvent, type DealEventData, type DealState, type TouchChannel } from './deal-model.ts';
import type { DealChange, OperationRequest } from './deal-port.ts';
import type { Actor, CheckpointKind, DealFacts, DealStage, Trigger } from './deal-vocabulary.ts';
import { decideOperation, operation, type OperationName } from './operations.ts';
import { decideMove, edges } from './transitions.ts';

/** A refused move or action: 409 naming the stage and what it needs (a gate refused to a background tick too). */
export class MoveRefused extends AppError {
  constructor(
    message: string,
    readonly reason: 'gate' | 'illegal' | 'needs',
  ) {
    super('conflict', message);
  }
}

type FactsOverride = Partial<Pick<DealFacts, 'installOnSite' | 'onboarded'>>;

/**
 * One deal inside one transaction: every change goes through here, so each is an event appended to the
 * log and folded into the stored state; every stage change is decided by the transition table, every
 * operation by the operations table, every checkpoint raised or resolved by the checkpoint-kind table.
 * `flush()` writes the events and the new state; the caller records the audit entry (deal-changes.ts).
 */
export class DealWriter implements DealChange {
  private state: DealState | null;
  private seq: number;
  private readonly pending: DealEvent[] = [];
  /** Checkpoints raised through this writer, not yet handed to `takeRaised` (the fleet events). */
  private readonly raised: { checkpointId: string; kind: CheckpointKind; detail: string | null }[] = [];
  /** The machine the deal placed (its fleet pin), written with the deal at `flush`. */
  private machineId: string | undefined;

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

  facts(extra: FactsOverride = {}): DealFacts {
    return factsOf(this.state, extra);
  }

  /** Whether anything was appended since the deal was opened. */
  get changed(): boolean {
    return this.pending.length > 0;
  }

  /** Appends an event (folded at once into the state). */
  emit(data: DealEventData, opts: { actor?: Actor; channel?: TouchChannel; scriptVersion?: string | null } = {}): void {
    const e = this.event(data, opts);
    this.seq = e.seq;
    this.state = applyEvent(this.state, this.dealId, e);
    this.pending.push(e);
  }

  private event(data: DealEventData, opts: { actor?: Actor; channel?: TouchChannel; scriptVersion?: string | null }): DealEvent {
    return {
      seq: this.seq + 1,
      at: formatTimestamp(this.now)!,
      actor: opts.actor ?? this.actor,
      channel: opts.channel ?? this.channel,
      scriptVersion: opts.scriptVersion ?? null,
      data,
    };
  }

  open(kind: CheckpointKind): { kind: CheckpointKind; id: string } | undefined {
    return this.state?.openCheckpoints.find((c) => c.kind === kind);
  }

  /**
   * Raises a checkpoint of `kind` as `by` where the checkpoint-kind table lets it: at a stage the kind belongs
   * to, before its moot fact holds, one open per kind. Answers its id, or null when raising it was moot (a
   * late provider callback on a deal that moved on). A raiser the table does not name is refused (409).
   */
  async raise(kind: CheckpointKind, by: Raiser, detail: string | null = null): Promise<string | null> {
    const v = decideRaise(this.facts(), kind, by);
    if (!v.ok) throw new MoveRefused(v.message, 'gate');
    if (!v.raise) return null;
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

  /** Resolves the deal's open checkpoint of `kind` by `by`, if the checkpoint-kind table lists it (409 otherwise); false when none is open. */
  async resolve(kind: CheckpointKind, by: Resolver): Promise<boolean> {
    const v = decideResolve(kind, by);
    if (!v.ok) throw new MoveRefused(v.message, 'illegal');
    const c = this.open(kind);
    if (!c) return false;
    await this.tx.dfy.resolveCheckpoint(c.id, v.as, this.now);
    this.emit({ type: 'checkpoint_resolved', kind, checkpointId: c.id, by: v.as });
    return true;
  }

  /** Whether the transition table allows the move now (nothing changes). */
  allowsMove(trigger: Trigger, req: { confirm?: boolean; facts?: FactsOverride } = {}): boolean {
    return decideMove(this.facts(req.facts), { trigger, actor: this.actor, confirm: req.confirm === true }).ok;
  }

  /** Whether the operations table allows `name` now, and the transition table its move (after `req.event`); nothing changes. */
  allows(name: OperationName, req: OperationRequest = {}): boolean {
    const confirm = req.confirm === true;
    if (!decideOperation(this.facts(), name, this.actor, confirm).ok) return false;
    const move = operation(name).move;
    if (!move || !edges(this.stage, move).length) return true;
    const after = req.event ? applyEvent(this.state, this.dealId, this.event(req.event, {})) : this.state;
    return decideMove(factsOf(after), { trigger: move, actor: this.actor, confirm }).ok;
  }

  /**
   * Runs an operation the operations table allows (else 409 naming the stage and what it needs): appends
   * `req.event`, then makes the operation's move where the transition table has one from here (the move
   * resolves its edge's checkpoints), or resolves the operation's own. Answers the stage moved to, or null.
   */
  async act(name: OperationName, req: OperationRequest = {}): Promise<DealStage | null> {
    const v = decideOperation(this.facts(), name, this.actor, req.confirm === true);
    if (!v.ok) throw new MoveRefused(v.message, v.reason);
    if (req.event) this.emit(req.event);
    const o = operation(name);
    if (o.move && edges(this.stage, o.move).length) return this.move(o.move, { confirm: req.confirm === true });
    for (const k of o.resolves) await this.resolve(k, name);
    return null;
  }

  /**
   * Moves the deal by `trigger` if the transition table allows it (else 409 naming the stage and what the
   * move needs), resolving the checkpoints the edge needs and raising those of the stage entered.
   */
  async move(trigger: Trigger, req: { confirm?: boolean; to?: DealStage; facts?: FactsOverride } = {}): Promise<DealStage> {
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
    for (const k of RAISED_ON_ENTRY[e.to] ?? []) await this.raise(k, 'entry');
    return e.to;
  }

  /** The machine the deal placed (its fleet pin): written with the deal at `flush`. */
  placeMachine(machineId: string): void {
    this.machineId = machineId;
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
      ...((set.machineId ?? this.machineId) !== undefined ? { machine_id: set.machineId ?? this.machineId } : {}),
    });
    return this.deal;
  }
}
