import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../../testing/harness.ts';
import { okData } from '../../../testing/answers.ts';
import { dfyKit, type Person } from '../testing/dfy-test-kit.ts';
import { CHECKPOINT_RULES, RAISERS, type Resolver } from './checkpoint-kinds.ts';
import type { DealState } from './deal-model.ts';
import { CHECKPOINT_KINDS, DEAL_STAGES, TRIGGERS, type Actor, type CheckpointKind, type DealStage, type Trigger } from './deal-vocabulary.ts';
import { DealWriter, MoveRefused } from './deal-writer.ts';
import { ACTIONS, OPERATION_NAMES, type OperationName } from './operations.ts';
import { edges } from './transitions.ts';

const VENUE = { name: 'Harbor Gym', address: '12 Pier St', lat: 40.7033, lng: -74.017 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };
const ACTORS: Actor[] = ['operator', 'autopilot', 'system'];

/**
 * The request that fires each trigger on an existing deal, and the operation it is (if it is one: one of the
 * graph's actions may answer 200 at a stage it runs at without moving: the checkout at lease_sent). `null`: no
 * request fires it (a deal is created by one; install begins with its work order; onboarding is the loop's).
 */
const REQUESTS: Record<Trigger, { path: string; body?: object; op?: OperationName }[] | null> = {
  deal_created: null,
  preorder_paid: [{ path: 'preorder', body: { confirm: true }, op: 'preorder' }],
  advance: [
    { path: 'advance', body: { to: 'shortlisting' } },
    { path: 'advance', body: { to: 'outreach' } },
  ],
  scout_accepted: [{ path: 'scout/accept', body: { venue: VENUE }, op: 'accept_scout' }],
  negotiation_reviewed: [{ path: 'negotiation/review' }],
  lease_sent: [{ path: 'lease/send', body: { confirm: true } }],
  signature: [{ path: 'lease/signature', op: 'sign' }],
  payment: [{ path: 'order/checkout', body: { confirm: true }, op: 'payment' }],
  tracking_recorded: [{ path: 'shipping/tracking', body: { carrier: 'ACME', trackingNumber: 'T1' }, op: 'record_tracking' }],
  install_began: null,
  onboarded: null,
  cancel: [{ path: 'cancel', body: { reason: 'a correction' } }],
};

/** Everything that could resolve a checkpoint: every trigger, every operation, the inbox, supersession. */
const RESOLVERS: Resolver[] = [...TRIGGERS, ...OPERATION_NAMES, 'acknowledged', 'superseded'];

describe.each(DIALECTS)('every move and resolution the tables do not allow is refused, on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { api, person } = dfyKit(t);
  const deal = async (who: Person, id: string) => okData(await api<DealState>('GET', `/deals/${id}`, who));

  /** A deal of `who` walked to `stage` by legal requests (live: the onboarding loop's outcome applied through the writer). */
  const dealAt = async (who: Person, stage: DealStage): Promise<string> => {
    if (stage === 'pre_ordered') return okData(await api<DealState>('POST', '/preorder', who, { tier: 'pro', hardwareVariant: 'agent', confirm: true })).id;
    const id = okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' })).id;
    const post = async (path: string, body?: object) => okData(await api<{ id: string }>('POST', path, who, body));
    const walk: [DealStage, () => Promise<unknown>][] = [
      ['cancelled', () => post(`/deals/${id}/cancel`, { reason: 'walked' })],
      ['outreach', () => post(`/deals/${id}/scout/accept`, { venue: VENUE })],
      [
        'lease_chat',
        async () => {
          await post(`/deals/${id}/negotiation/start`, { confirm: true, envelope: ENVELOPE });
          await post(`/deals/${id}/negotiation/terms`, { revenueSharePct: 10, termMonths: 24, rounds: 3 });
          await post(`/deals/${id}/negotiation/review`);
        },
      ],
      ['lease_sent', () => post(`/deals/${id}/lease/send`, { confirm: true })],
      ['signed', () => post(`/deals/${id}/lease/signature`)],
      ['ready_to_ship', () => post(`/deals/${id}/order/checkout`, { confirm: true })],
      ['shipped', () => post(`/deals/${id}/shipping/tracking`, { carrier: 'ACME', trackingNumber: `T${id.slice(-6)}` })],
      ['installing', async () => post(`/install/orders/${(await post(`/deals/${id}/install/dispatch`, { confirm: true })).id}`, { state: 'on_site' })],
      [
        'live',
        () =>
          t.services.store.transaction(async (tx) => {
            const w = await DealWriter.open(tx, (await tx.dfy.deal(id))!, t.clock.now(), 'system', 'system');
            w.emit({ type: 'onboarding_checked', online: true, terminal: 'bound', planogram: true });
            await w.move('onboarded', { facts: { onboarded: true } });
            await w.flush();
          }),
      ],
    ];
    for (const [reached, step] of stage === 'cancelled' ? walk.slice(0, 1) : walk.slice(1)) {
      if (stage === 'shortlisting') break;
      await step();
      if (reached === stage) break;
    }
    expect((await deal(who, id)).stage).toBe(stage);
    return id;
  };

  it('each (stage, trigger) pair the transition table has no edge for is refused: by the writer for every actor, and by the request that fires it', async () => {
    const me = await person();
    let pairs = 0;
    for (const stage of DEAL_STAGES) {
      const id = await dealAt(me, stage);
      for (const trigger of TRIGGERS) {
        if (edges(stage, trigger).length) continue;
        pairs++;
        const before = await deal(me, id);
        for (const actor of ACTORS) {
          const attempt = t.services.store.transaction(async (tx) => {
            const w = await DealWriter.open(tx, (await tx.dfy.deal(id))!, t.clock.now(), actor);
            await w.move(trigger, { confirm: true, facts: { installOnSite: true, onboarded: true } });
          });
          await expect(attempt, `${stage} -${trigger}-> as ${actor}`).rejects.toBeInstanceOf(MoveRefused);
        }
        for (const req of REQUESTS[trigger] ?? []) {
          const r = await api('POST', `/deals/${id}/${req.path}`, me, req.body);
          const after = await deal(me, id);
          // one of the graph's actions may run here without a move (the checkout at lease_sent waits for the signature)
          if (ACTIONS.some((a) => a.name === req.op && a.stages.includes(stage)))
            expect([r.status, after.stage], `${stage}: ${req.path}`).toEqual([200, stage]);
          else {
            expect([r.status, r.body.message], `${stage}: ${req.path}`).toEqual([409, expect.stringMatching(new RegExp(`^Deal is ${stage}: `))]);
            expect(after.timeline.length, `${stage}: ${req.path} wrote nothing`).toBe(before.timeline.length);
          }
          expect(after.stage).toBe(stage);
        }
      }
    }
    expect(pairs).toBeGreaterThan(100);
  });

  it('each (checkpoint kind, resolver) pair the checkpoint-kind table does not allow is refused, and the inbox acknowledges only the kinds it lists', async () => {
    const me = await person();
    const at = new Map<DealStage, string>();
    const open = async (kind: CheckpointKind) => {
      const stage = CHECKPOINT_RULES[kind].raisedAt[0]!;
      if (!at.has(stage)) at.set(stage, await dealAt(me, stage));
      const id = at.get(stage)!;
      await t.services.store.transaction(async (tx) => {
        const w = await DealWriter.open(tx, (await tx.dfy.deal(id))!, t.clock.now(), 'system', 'system');
        await w.raise(kind, CHECKPOINT_RULES[kind].raisedBy[0]!, 'raised by the test');
        await w.flush();
      });
      const [c] = okData(await api<{ records: { id: string }[] }>('GET', '/checkpoints', me, undefined, { dealId: id, kind, resolved: 'false' })).records;
      expect(c, `${kind} open at ${stage}`).toBeDefined();
      return { dealId: id, checkpointId: c!.id };
    };
    const stillOpen = async (kind: CheckpointKind, c: { dealId: string; checkpointId: string }) =>
      expect(
        okData(await api<{ records: { id: string }[] }>('GET', '/checkpoints', me, undefined, { dealId: c.dealId, kind, resolved: 'false' })).records,
      ).toEqual([expect.objectContaining({ id: c.checkpointId })]);
    let pairs = 0;
    for (const kind of CHECKPOINT_KINDS) {
      const c = await open(kind);
      const rule = CHECKPOINT_RULES[kind];
      for (const by of RESOLVERS) {
        if (rule.resolvers.includes(by) || by === 'cancel' || by === 'superseded') continue;
        pairs++;
        const attempt = t.services.store.transaction(async (tx) => {
          const w = await DealWriter.open(tx, (await tx.dfy.deal(c.dealId))!, t.clock.now(), 'operator');
          await w.resolve(kind, by);
        });
        await expect(attempt, `${kind} by ${by}`).rejects.toThrow(
          new RegExp(`^Checkpoint ${kind} is resolved only by ${rule.resolvedBy.replace(/[()]/g, '\\$&')}$`),
        );
      }
      if (!rule.resolvers.includes('acknowledged')) {
        const r = await api('POST', `/checkpoints/${c.checkpointId}/acknowledge`, me);
        expect([r.status, r.body.message]).toEqual([409, `Checkpoint ${kind} is resolved only by ${rule.resolvedBy}`]);
      }
      await stillOpen(kind, c);
      // a part of the pipeline the table does not name cannot raise it either
      for (const by of RAISERS.filter((r) => !rule.raisedBy.includes(r))) {
        const attempt = t.services.store.transaction(async (tx) => {
          const w = await DealWriter.open(tx, (await tx.dfy.deal(c.dealId))!, t.clock.now(), 'system', 'system');
          await w.raise(kind, by);
        });
        await expect(attempt, `${kind} raised by ${by}`).rejects.toBeInstanceOf(MoveRefused);
      }
    }
    expect(pairs).toBeGreaterThan(200);
  });
});
