import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Clock } from '@vend/protocol';
import type { Config } from './config.ts';
import type { AuditLog } from './http/audit.ts';
import type { AppStore } from './repos.ts';
import type { CommandsService } from './domains/commands/commands.service.ts';
import type { AgentFleetService } from './domains/releases/agent-fleet.service.ts';
import type { AdDeliveryService } from './domains/ad-delivery/ad-delivery.service.ts';
import type { DfyInstallService } from './domains/dfy/shipping-install/install.service.ts';
import type { DfyAutopilotService } from './domains/dfy-autopilot/dfy-autopilot.service.ts';
import type { WebhookDeliveryService } from './domains/webhooks/webhook-delivery.service.ts';
import type { EventSink } from './domains/webhooks/webhook-events.ts';
import type { AlertsService } from './domains/alerts/alerts.service.ts';
import type { PresenceService } from './domains/alerts/presence.service.ts';
import type { KioskRefundsService } from './domains/kiosk-checkout/kiosk-refunds.service.ts';
import type { AdReceipts } from './domains/ad-purchases/ad-receipts.ts';
import { createLease, type LeaderLease } from './jobs/lease.ts';
import { Loop, type LoopWork } from './jobs/loop.ts';

/** How often each loop ticks. The decision loop ticks often so a missing outcome is ruled soon after its timeout. */
export const INTERVALS_MS = {
  refundSweep: 60_000,
  dispenseDecision: 5_000,
  rolloutSweep: 60_000,
  popRetry: 60_000,
  dfyOnboarding: 5_000,
  dfyAutopilot: 60_000,
  webhookDelivery: 5_000,
  presenceSweep: 30_000,
  alertNotify: 15_000,
  kioskRefunds: 10_000,
  adReceipts: 30_000,
} as const;
/** Most items one sweep resolves; the rest wait for the next tick. */
const BATCH = 500;

export interface JobsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  logger: Logger;
  /** The leader lease lives in Redis when one is configured. */
  redis: Redis | null;
  /** Expires overdue remote drops (the dispense-decision loop). */
  commands: CommandsService;
  /** Counts rollout progress (the rollout sweep). */
  releases: Pick<AgentFleetService, 'recordProgress'>;
  /** Fires programmatic proofs of play whose first try failed (the PoP retry). */
  ads: Pick<AdDeliveryService, 'retryPops'>;
  /** Moves installing done-for-you deals live once their cabinet is verified online (auto-onboarding). */
  dfy: Pick<DfyInstallService, 'onboardTick'>;
  /** The done-for-you autopilot: every operator's deals and DFY machines, within their portfolio settings. */
  autopilot: Pick<DfyAutopilotService, 'tick'>;
  /** Sends due outbound webhook deliveries (the webhook delivery loop). */
  webhooks: Pick<WebhookDeliveryService, 'deliverDue'>;
  /** The outbox: an order flagged refund_owed reaches the operator's webhooks. */
  events: EventSink;
  /** Raises machine.online / machine.offline (the presence sweep). */
  presence: Pick<PresenceService, 'sweep'>;
  /** Notifies due alerts and closes cleared ones (the alert loop). */
  alerts: Pick<AlertsService, 'notifyDue'>;
  /** Sends ad buyers' receipt e-mails that are due (the receipt loop). */
  receipts: Pick<AdReceipts, 'sendDue'>;
  /** Refunds pay-by-phone checkouts owed back through their processor (the kiosk refund loop). */
  kioskRefunds: Pick<KioskRefundsService, 'sweep'>;
  config: Pick<Config, 'jobs' | 'pod' | 'redisKeyPrefix'>;
}

/**
 * The refund sweep: a paid order still not vended `graceMs` after it was opened is flagged
 * `refund_owed` (the safety net behind the dispense-decision loop: it catches orders whose board
 * reported a failed drop while the money stayed captured, and anything the decision loop did not
 * settle). One transaction per order, with its audit record.
 */
export function refundSweepWork(d: Pick<JobsDeps, 'store' | 'clock' | 'audit' | 'events'>, graceMs: number): LoopWork {
  return async () => {
    const now = d.clock.now();
    const due = await d.store.repos.orders.paidNotVended(now - graceMs, BATCH, false);
    let flagged = 0;
    for (const o of due) {
      const done = await d.store.transaction(async (tx) => {
        if (!(await tx.orders.settleUnvended(o.order_number, 'refund_owed', now))) return false;
        await d.audit.record(tx, null, 'order.refund_owed', `order:${o.order_number}`);
        const order = (await tx.orders.order(o.order_number))!;
        const m = await tx.machines.machineById(order.machine_id);
        await d.events.emit(tx, {
          operatorId: order.operator_id,
          type: 'order.refund_owed',
          machineNo: m?.machine_no ?? null,
          data: { orderNumber: order.order_number, aisleNo: order.aisle_no, chargedCents: order.charged_cents, payMethod: order.pay_method },
        });
        return true;
      });
      if (done) flagged++;
    }
    return flagged;
  };
}

/**
 * The dispense-decision loop: an outcome missing `timeoutMs` after the vend began is ruled a failure
 * and the money returned — pending commands expire (their paid orders are refunded) and paid cabinet
 * orders no dispense report reached become `refunded`.
 */
export function dispenseDecisionWork(d: Pick<JobsDeps, 'store' | 'clock' | 'audit' | 'commands'>, timeoutMs: number): LoopWork {
  return async () => {
    let resolved = await d.commands.expireOverdue(timeoutMs, BATCH);
    const now = d.clock.now();
    const due = await d.store.repos.orders.paidNotVended(now - timeoutMs, BATCH, true);
    for (const o of due) {
      const done = await d.store.transaction(async (tx) => {
        if (!(await tx.orders.settleUnvended(o.order_number, 'refunded', now))) return false;
        await d.audit.record(tx, null, 'order.refund', `order:${o.order_number}`);
        return true;
      });
      if (done) resolved++;
    }
    return resolved;
  };
}

/**
 * The kiosk refund loop: settles paid checkouts whose drop ended, then refunds each owed one through the processor it
 * was paid with (once: the service's idempotency keys and conditional moves). Resolves refunds issued or refused; an
 * attempt the processor did not answer fails the tick (the loop's status shows why) after the rest were tried.
 */
export function kioskRefundsWork(d: Pick<JobsDeps, 'kioskRefunds'>): LoopWork {
  return async () => {
    const r = await d.kioskRefunds.sweep();
    if (r.unknown > 0) {
      const why = r.firstError instanceof Error ? r.firstError.message : String(r.firstError);
      throw new Error(`${r.unknown} kiosk refund(s) unanswered by the payment processor, retried with the same key next tick: ${why}`, { cause: r.firstError });
    }
    return r.issued + r.failed;
  };
}

/**
 * The rollout sweep: with a rollout in flight, counts its progress over the whole fleet (the
 * releases domain's own rules) and writes a `rollout_progress` snapshot when the phase or a count
 * changed since the last one. Resolves the number of snapshots written (0 on a quiet fleet).
 */
export function rolloutSweepWork(d: Pick<JobsDeps, 'releases'>): LoopWork {
  return () => d.releases.recordProgress();
}

/** The rollout sweep loop; `work` stays swappable so tests can make a sweep fail. */
export class RolloutSweep extends Loop {
  /** The sweep's work (it answers how many items it resolved). */
  get work(): LoopWork | null {
    return this.getWork();
  }
  set work(work: LoopWork | null) {
    this.setWork(work);
  }
}

/** The background loops of one replica and the lease that decides whether this replica runs them. */
export class Jobs {
  readonly lease: LeaderLease;
  readonly refundSweep: Loop;
  readonly dispenseDecision: Loop;
  readonly rolloutSweep: RolloutSweep;
  readonly popRetry: Loop;
  readonly dfyOnboarding: Loop;
  readonly dfyAutopilot: Loop;
  readonly webhookDelivery: Loop;
  readonly presenceSweep: Loop;
  readonly alertNotify: Loop;
  readonly kioskRefunds: Loop;
  readonly adReceipts: Loop;
  private readonly pod: string;

  constructor(d: JobsDeps) {
    const j = d.config.jobs;
    this.pod = d.config.pod;
    this.lease = createLease({
      dialect: d.store.dialect,
      leases: d.store.repos.leases,
      redis: d.redis,
      redisKeyPrefix: d.config.redisKeyPrefix,
      pod: d.config.pod,
      ttlMs: j.leaseTtlSeconds * 1000,
    });
    const common = { enabled: j.enabled, clock: d.clock, lease: this.lease, logger: d.logger };
    const every = (ms: number) => (j.intervalSeconds !== undefined ? j.intervalSeconds * 1000 : ms);
    this.refundSweep = new Loop({
      ...common,
      name: 'refund-sweep',
      description: `flags paid orders not vended ${j.refundGraceSeconds}s after they were opened as refund_owed`,
      intervalMs: every(INTERVALS_MS.refundSweep),
      work: refundSweepWork(d, j.refundGraceSeconds * 1000),
      extra: { graceSeconds: j.refundGraceSeconds },
    });
    this.dispenseDecision = new Loop({
      ...common,
      name: 'dispense-decision',
      description: `rules a vend failed and returns its money when no outcome arrived within ${j.dispenseTimeoutSeconds}s (pending commands expire; paid cabinet orders are refunded)`,
      intervalMs: every(INTERVALS_MS.dispenseDecision),
      work: dispenseDecisionWork(d, j.dispenseTimeoutSeconds * 1000),
      extra: { timeoutSeconds: j.dispenseTimeoutSeconds },
    });
    this.rolloutSweep = new RolloutSweep({
      ...common,
      name: 'rollout-sweep',
      description:
        'with a rollout in flight, counts its progress over the whole fleet and writes a rollout_progress snapshot when the phase or a count changed (resolved: snapshots written)',
      intervalMs: every(INTERVALS_MS.rolloutSweep),
      work: rolloutSweepWork(d),
    });
    this.popRetry = new Loop({
      ...common,
      name: 'pop-retry',
      description: 'fires the proof-of-play URLs of programmatic plays whose first call failed (at most 5 tries each; resolved: fired)',
      intervalMs: every(INTERVALS_MS.popRetry),
      work: () => d.ads.retryPops(),
    });
    this.dfyOnboarding = new Loop({
      ...common,
      name: 'dfy-onboarding',
      description:
        'moves installing done-for-you deals live once the cabinet is verified online through the gateway: binds the payment terminal (a failure raises cashless_fail) and loads the starter planogram (resolved: deals gone live)',
      intervalMs: every(INTERVALS_MS.dfyOnboarding),
      work: () => d.dfy.onboardTick(),
    });
    this.dfyAutopilot = new Loop({
      ...common,
      name: 'dfy-autopilot',
      description:
        "the done-for-you autopilot for every operator: what each deal's resolved mode allows within the portfolio settings (accepts a top venue at autoApproveScore up to maxAutoApprove a day, steps outreach, raises negotiation_target, steps a started sandbox negotiation, reviews converged terms into lease_chat, ships in the sandbox) and the inventory tick (orders over the monthly cap or moneyThresholdUsd wait for approval); never a confirm gate (resolved: venues accepted, touches, rounds, deals moved, checkpoints raised, orders placed)",
      intervalMs: every(INTERVALS_MS.dfyAutopilot),
      work: async () => {
        const r = await d.autopilot.tick(null);
        return (
          r.accepted.length +
          r.touches.length +
          r.negotiationSteps.length +
          r.reviewed.length +
          r.shipped.length +
          r.raised.length +
          r.inventory.queued.length +
          r.inventory.pendingApproval.length
        );
      },
    });
    this.webhookDelivery = new Loop({
      ...common,
      name: 'webhook-delivery',
      description: 'sends due outbound webhook deliveries in order per machine, retrying failures with exponential backoff for 24 h (resolved: attempts made)',
      intervalMs: INTERVALS_MS.webhookDelivery,
      work: () => d.webhooks.deliverDue(),
    });
    this.presenceSweep = new Loop({
      ...common,
      name: 'presence-sweep',
      description:
        'raises machine.offline for machines unseen more than 10 minutes and machine.online when they are back, once per change (resolved: machines changed)',
      intervalMs: INTERVALS_MS.presenceSweep,
      work: () => d.presence.sweep(),
    });
    this.alertNotify = new Loop({
      ...common,
      name: 'alert-notify',
      description: 'notifies alerts whose quiet hours are over and closes alerts clear for 30 minutes, by webhook and e-mail (resolved: alerts handled)',
      intervalMs: INTERVALS_MS.alertNotify,
      work: () => d.alerts.notifyDue(),
    });
    this.kioskRefunds = new Loop({
      ...common,
      name: 'kiosk-refunds',
      description:
        'refunds pay-by-phone checkouts owed back (a failed drop, a payment after the checkout ended) through the processor they were paid with, once per attempt key; a refused refund is recorded with its reason, told to the operator (order.refund_failed) and retried after 15 min and 2 h, 3 attempts in all (resolved: refunds issued or refused)',
      intervalMs: every(INTERVALS_MS.kioskRefunds),
      work: kioskRefundsWork(d),
    });
    this.adReceipts = new Loop({
      ...common,
      name: 'ad-receipts',
      description:
        "sends ad buyers' receipt e-mails queued with their payment that are due: a failed send is retried after 1, 2, 4… minutes (at most an hour apart), given up after 10 tries (resolved: receipts sent)",
      intervalMs: INTERVALS_MS.adReceipts,
      work: () => d.receipts.sendDue(),
    });
  }

  all(): Loop[] {
    return [
      this.refundSweep,
      this.dispenseDecision,
      this.rolloutSweep,
      this.popRetry,
      this.dfyOnboarding,
      this.dfyAutopilot,
      this.webhookDelivery,
      this.presenceSweep,
      this.alertNotify,
      this.kioskRefunds,
      this.adReceipts,
    ];
  }

  status(name: 'refund-sweep' | 'dispense-decision' | 'rollout-sweep') {
    const loop = this.all().find((l) => l.name === name)!;
    return loop.status(this.pod);
  }

  /** Schedules every enabled loop on the clock (main.ts calls this once). */
  start(): void {
    for (const l of this.all()) l.start();
  }

  /** Stops the loops, waits for ticks in flight, and gives the lease up. Safe to call twice. */
  async stop(): Promise<void> {
    await Promise.all(this.all().map((l) => l.stop()));
    try {
      await this.lease.release();
    } catch {
      // the store or Redis is already gone: the lease lapses on its own
    }
  }
}

/** Starts the background loops of this replica (the composition root's `jobs`); called from main.ts and from nowhere else. */
export function startJobs(services: { jobs: Jobs }): void {
  services.jobs.start();
}

/** Stops them (shutdown): waits for a tick in flight and releases the leader lease. */
export function stopJobs(services: { jobs: Jobs }): Promise<void> {
  return services.jobs.stop();
}
