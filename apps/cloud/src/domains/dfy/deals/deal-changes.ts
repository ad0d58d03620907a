import type { Clock } from '@vend/protocol';
import type { DfyDealRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { requireOwned } from '../../../http/authenticate.ts';
import { notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import type { EventSink } from '../../webhooks/webhook-events.ts';
import type { DealState, TouchChannel } from './deal-model.ts';
import type { Actor } from './deal-vocabulary.ts';
import { DealWriter } from './deal-writer.ts';

export interface DealChangesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Fleet events: a checkpoint raised on a deal reaches the operator's webhooks and alert rules. */
  events: EventSink;
}

/** Who changes a deal, as which actor, and what the audit log records of it. */
export interface ChangeScope {
  /** The caller's transaction (its own rows are written in it too); absent: a transaction of the change's own. */
  tx?: Repos;
  /** Whose request: the deal must be theirs (404 otherwise); null: a background tick or a provider callback. */
  p: Principal | null;
  actor: Actor;
  channel?: TouchChannel;
  /** The audit entry, recorded when the change appended anything (target: the deal unless given); null: the caller records its own. */
  audit: { action: string; target?: string | ((deal: DealState) => string) } | null;
}

/**
 * The one way a deal is written: opened (locked) through its writer as an actor, changed, then — when the
 * change appended anything — flushed together with the fleet events of the checkpoints it raised and
 * audited, all in one transaction. Every service of the deal core and the port the layers above use
 * (`DfyService.amendDeal`) go through here.
 */
export class DealChanges {
  constructor(private readonly deps: DealChangesDeps) {}

  /** The deal's row as `p` may see it (another operator's: 404; null: the system sees every deal). */
  async owned(repos: Repos, p: Principal | null, dealId: string): Promise<DfyDealRow> {
    const row = await repos.dfy.deal(dealId);
    if (p !== null) return requireOwned(p, row, () => notFound('Deal'));
    if (!row) throw notFound('Deal');
    return row;
  }

  /** One change to an existing deal (see the class). */
  async change<T>(dealId: string, scope: ChangeScope, change: (w: DealWriter, tx: Repos, now: number) => Promise<T>): Promise<{ deal: DealState; result: T }> {
    const run = async (tx: Repos) => {
      const now = this.deps.clock.now();
      const w = await DealWriter.open(tx, await this.owned(tx, scope.p, dealId), now, scope.actor, scope.channel ?? 'api');
      const result = await change(w, tx, now);
      return { deal: await this.save(tx, w, scope), result };
    };
    return scope.tx ? run(scope.tx) : this.deps.store.transaction(run);
  }

  /** A new deal of `operatorId`, made by `make` (its `created` event and first move), written and audited. */
  async create(operatorId: string, scope: ChangeScope, make: (w: DealWriter, tx: Repos, now: number) => Promise<void>): Promise<DealState> {
    const run = async (tx: Repos) => {
      const now = this.deps.clock.now();
      const w = DealWriter.create(tx, operatorId, now, scope.actor, scope.channel ?? 'api');
      await make(w, tx, now);
      return this.save(tx, w, scope);
    };
    return scope.tx ? run(scope.tx) : this.deps.store.transaction(run);
  }

  /** Flushes a changed deal, tells the operator's webhooks and alert rules of each checkpoint raised meanwhile, records the audit entry. */
  private async save(tx: Repos, w: DealWriter, scope: ChangeScope): Promise<DealState> {
    if (!w.changed) return w.deal;
    const deal = await w.flush();
    for (const c of w.takeRaised()) {
      await this.deps.events.emit(tx, {
        operatorId: w.operatorId,
        type: 'dfy.checkpoint_raised',
        machineNo: null,
        data: { dealId: w.dealId, stage: deal.stage, ...c },
      });
    }
    const target = scope.audit?.target;
    if (scope.audit)
      await this.deps.audit.record(tx, scope.p, scope.audit.action, typeof target === 'function' ? target(deal) : (target ?? `deal:${w.dealId}`));
    return deal;
  }
}
