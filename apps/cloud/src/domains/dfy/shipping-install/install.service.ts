import type { Clock } from '@vend/protocol';
import { newId } from '../../../crypto/ids.ts';
import type { DfyWorkOrderRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { requireOwned } from '../../../http/authenticate.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore } from '../../../repos.ts';
import type { CredentialAdminService } from '../../device-credentials/credential-admin.service.ts';
import type { MachinesService } from '../../machines/machines.service.ts';
import type { EventSink } from '../../webhooks/webhook-events.ts';
import { DealChanges } from '../deals/deal-changes.ts';
import type { DealState } from '../deals/deal-model.ts';
import { workOrderForward, type WorkOrderState } from '../deals/dfy.rules.ts';
import type { TrackingBody, WorkOrder, WorkOrderBody } from '../deals/dfy.schemas.ts';
import { STARTER_PLANOGRAM } from './planogram.ts';

export interface DfyInstallDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Fleet events: a checkpoint raised on a deal (cashless_fail) reaches the operator's webhooks and alert rules. */
  events: EventSink;
  /** The terminal bind is the machines domain's operation. */
  machines: Pick<MachinesService, 'bindTerminal'>;
  /** Install day: the deal opens an enrolment arm on its pin so the shipped cabinet can enrol. */
  credentials: Pick<CredentialAdminService, 'arm'>;
}

/** A cabinet is verified online when its last heartbeat is this recent (spec 1 §8: unseen > ~10 min is down). */
export const ONLINE_WINDOW_MS = 10 * 60_000;
/** The enrolment arm an install opens stays open this long (the spec's maximum, 24 h). */
export const INSTALL_ARM_TTL_MINUTES = 1440;
const BATCH = 200;

/**
 * From the paid machine to live (spec 3 §3, §4; docs/decisions/dfy.md): the shipment's tracking, the install
 * work order and its forward-only states, the enrolment arm on install day, and auto-onboarding. Every move
 * and operation is decided by the deal core's tables; every write goes through `DealChanges`.
 */
export class DfyInstallService {
  private readonly changes: DealChanges;
  constructor(private readonly deps: DfyInstallDeps) {
    this.changes = new DealChanges(deps);
  }

  /** Tracking recorded: ready_to_ship → shipped (no refund after this). */
  async recordTracking(p: Principal, dealId: string, body: Parsed<typeof TrackingBody>): Promise<DealState> {
    const scope = { p, actor: 'operator', audit: { action: 'dfy.tracking' } } as const;
    const event = { type: 'tracking_recorded', carrier: body.carrier, trackingNumber: body.trackingNumber } as const;
    return (await this.changes.change(dealId, scope, (w) => w.act('record_tracking', { event }))).deal;
  }

  /** Confirmed install dispatch on a shipped deal: a `dfy_install` work order, open. */
  async dispatchInstall(p: Principal, dealId: string): Promise<Parsed<typeof WorkOrder>> {
    const scope = { p, actor: 'operator', audit: { action: 'dfy.install_dispatch' } } as const;
    const { result: id } = await this.changes.change(dealId, scope, async (w, tx, now) => {
      await w.act('dispatch_install');
      const open = (await tx.dfy.workOrdersOf(w.dealId)).find((o) => o.type === 'dfy_install' && o.state !== 'completed');
      if (open) throw conflict(`Deal is ${w.stage}: install work order ${open.id} is already ${open.state}`);
      const workOrderId = newId('wo', now);
      await tx.dfy.insertWorkOrder({
        id: workOrderId,
        deal_id: w.dealId,
        operator_id: w.operatorId,
        type: 'dfy_install',
        state: 'open',
        assignee: null,
        scheduled_for: null,
        created_at: now,
        updated_at: now,
      });
      w.emit({ type: 'install_dispatched', workOrderId });
      return workOrderId;
    });
    return this.workOrder(p, id);
  }

  async workOrder(p: Principal, id: string): Promise<Parsed<typeof WorkOrder>> {
    const o = requireOwned(p, await this.deps.store.repos.dfy.lockWorkOrder(id), () => notFound('Work order'));
    return workOrderView(o);
  }

  /**
   * Advances a work order forward only. Reaching `on_site` begins the install where the transition table lets
   * it (shipped → installing), and an enrolment arm opens on the deal's pin so the cabinet being installed can enrol.
   */
  async advanceWorkOrder(p: Principal, id: string, body: Parsed<typeof WorkOrderBody>): Promise<Parsed<typeof WorkOrder>> {
    const now = this.deps.clock.now();
    const arm = await this.deps.store.transaction(async (tx) => {
      const o = requireOwned(p, await tx.dfy.lockWorkOrder(id), () => notFound('Work order'));
      const from = o.state as WorkOrderState;
      if (!workOrderForward(from, body.state)) throw conflict(`Work order is ${from}: it moves forward only (${from} → ${body.state} refused)`);
      await tx.dfy.updateWorkOrder(id, {
        state: body.state,
        updated_at: now,
        ...(body.assignee !== undefined ? { assignee: body.assignee } : {}),
        ...(body.scheduledFor !== undefined ? { scheduled_for: Date.parse(body.scheduledFor) } : {}),
      });
      const scope = { tx, p, actor: 'operator', audit: { action: 'dfy.work_order', target: `work_order:${id} ${from}->${body.state}` } } as const;
      const { result } = await this.changes.change(o.deal_id, scope, async (w) => {
        w.emit({ type: 'install_progress', workOrderId: id, state: body.state });
        if (!w.allowsMove('install_began')) return null;
        await w.move('install_began');
        return w.deal.machineNo;
      });
      return result;
    });
    // the arm is the device-credentials domain's own write (its transaction, its audit record)
    if (arm !== null && (await this.deps.store.repos.machines.machineByNo(arm))) {
      try {
        await this.deps.credentials.arm(p, arm, { reason: `dfy install, work order ${id}`, ttlMinutes: INSTALL_ARM_TTL_MINUTES });
      } catch (err) {
        // already enrolled (or revoked: its owner resets it): no arm is needed or possible, and the advance stands
        if (!(err instanceof AppError && err.status === 409)) throw err;
      }
    }
    return this.workOrder(p, id);
  }

  /**
   * Auto-onboarding (the background loop): each installing deal whose cabinet is verified online through the
   * gateway (enrolled, registered, heartbeat within 10 minutes) gets its payment terminal bound and its starter
   * planogram loaded, then goes live. A failed bind raises cashless_fail and does not hold the deal back.
   */
  async onboardTick(): Promise<number> {
    let live = 0;
    const audit = { action: 'dfy.live', target: (d: DealState) => `deal:${d.id} machine:${d.machineNo} terminal:${d.onboarding?.terminal}` };
    for (const row of await this.deps.store.repos.dfy.dealsAt('installing', BATCH)) {
      const { result: done } = await this.changes.change(row.id, { p: null, actor: 'system', channel: 'system', audit }, async (w, tx, now) => {
        // where the table takes an onboarded deal live (the stage may have moved since the batch was read)
        if (!w.allowsMove('onboarded', { facts: { onboarded: true } }) || !w.deal.machineNo) return false;
        const m = await tx.machines.findView(w.deal.machineNo);
        if (!m) return false;
        const identity = await tx.deviceCredentials.lockIdentity(m.id);
        const online =
          m.status === 'online' &&
          m.last_seen !== null &&
          now - Number(m.last_seen) <= ONLINE_WINDOW_MS &&
          identity?.cred_state === 'enrolled' &&
          m.agent_version !== null;
        if (!online) return false;
        const bind = await this.deps.machines.bindTerminal(tx, m.id);
        await tx.inventory.loadPlanogram(m.id, STARTER_PLANOGRAM);
        w.emit({ type: 'onboarding_checked', online: true, terminal: bind.ok ? 'bound' : 'failed', planogram: true });
        if (!bind.ok) await w.raise('cashless_fail', 'onboarding', bind.reason);
        await w.move('onboarded', { facts: { onboarded: true } });
        w.placeMachine(m.id);
        return true;
      });
      if (done) live++;
    }
    return live;
  }
}

function workOrderView(o: DfyWorkOrderRow): Parsed<typeof WorkOrder> {
  return {
    id: o.id,
    dealId: o.deal_id,
    type: o.type as 'dfy_install',
    state: o.state as WorkOrderState,
    assignee: o.assignee,
    scheduledFor: formatTimestamp(o.scheduled_for === null ? null : Number(o.scheduled_for)),
    createdAt: formatTimestamp(Number(o.created_at))!,
    updatedAt: formatTimestamp(Number(o.updated_at))!,
  };
}
