import type { Clock } from '@vend/protocol';
import { newId } from '../../../crypto/ids.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { DfyDealRow, DfySupplierOrderRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { ownerFilter, requireOwned } from '../../../http/authenticate.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import type { DfyService } from '../deals/dfy.service.ts';
import type { InventoryTick, ReceiveBody, Suggestions, SupplierOrder } from './dfy-inventory.schemas.ts';
import type { PortfolioSettings } from '../deals/dfy.rules.ts';
import { machineSubject, subjectMode } from '../modes/mode-inputs.ts';
import { estimatedCents, refillLines, type RefillLine } from './refill.ts';
import { orderApprovalReasons } from '../portfolio/autopilot.ts';

type Placed = DfyDealRow & { machine_id: string };

export interface DfyInventoryDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  settings: { settingsOf(operatorId: string, repos: Repos): Promise<PortfolioSettings> };
  /** The deals' own service: the inventory_cap checkpoint is raised and resolved through the deal core's tables. */
  deals: Pick<DfyService, 'raiseIn' | 'amendDeal'>;
}

const usd = (cents: number) => Math.round(cents) / 100;
const monthStart = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/**
 * Inventory automation of DFY machines (spec 3 key rule 6; docs/decisions/dfy-modes.md): low aisles become a
 * supplier order plus a `dfy_refill` work order; over the machine's monthly cap the order waits at
 * pending_approval with an `inventory_cap` checkpoint; receiving restocks through the inventory domain,
 * closes the work order and settles the estimate into a FIFO purchase order. Only machines whose resolved
 * inventory capability is on and whose portfolio has autoInventory.
 */
export class DfyInventoryService {
  constructor(private readonly deps: DfyInventoryDeps) {}

  /**
   * One pass over the caller's live DFY machines (an admin, or null — the autopilot loop: everyone's). A
   * repeated tick never doubles an order.
   */
  async tick(p: Principal | null): Promise<Parsed<typeof InventoryTick>> {
    const now = this.deps.clock.now();
    const out: Parsed<typeof InventoryTick> = { examined: 0, ordered: [], skipped: [] };
    const placed = (await this.deps.store.repos.dfy.allDeals(p ? ownerFilter(p) : null)).filter(
      (r): r is Placed => r.stage === 'live' && r.machine_id !== null,
    );
    for (const row of placed) {
      out.examined++;
      const r = await this.deps.store
        .transaction(async (tx): Promise<{ skip: string } | { order: DfySupplierOrderRow }> => {
          // the deal's row lock first: concurrent ticks of one machine queue here instead of deadlocking on
          // the refill work order's foreign key against the inventory_cap raise
          await tx.dfy.lockDeal(row.id);
          const plan = await this.plan(tx, row, now);
          if (!plan.automated) return { skip: 'inventory automation is off (autoInventory or the inventory capability)' };
          if (plan.open) return { skip: `order ${plan.open.id} is still open` };
          if (!plan.lines.length) return { skip: 'no aisle at or below 25% of max' };
          return { order: await this.place(tx, p, row, plan.lines, plan.approval, now) };
        })
        .catch((e: unknown) => {
          // a concurrent tick placed the machine's open order first (the partial unique index)
          if (isUniqueViolation(e)) return { skip: 'a concurrent tick placed its order' };
          throw e;
        });
      if ('order' in r) out.ordered.push(await this.view(this.deps.store.repos, r.order));
      else out.skipped.push({ machineNo: await this.machineNo(this.deps.store.repos, row.machine_id), reason: r.skip });
    }
    return out;
  }

  /** What the tick would order for one machine, written nowhere. */
  async suggestions(p: Principal, machineNo: string): Promise<Parsed<typeof Suggestions>> {
    const repos = this.deps.store.repos;
    const m = requireOwned(p, await repos.machines.machineByNo(machineNo), () => notFound('Machine'));
    const row = await repos.dfyModes.dealOfMachine(m.id);
    if (!row) throw conflict(`Machine ${machineNo} was not placed by a done-for-you deal`);
    const plan = await this.plan(repos, { ...row, machine_id: m.id }, this.deps.clock.now());
    return {
      machineNo,
      lines: plan.lines.map(lineView),
      estimatedCostUsd: usd(estimatedCents(plan.lines)),
      costIsEstimate: true,
      spentThisMonthUsd: usd(plan.spent),
      monthlyCapUsd: plan.settings.inventoryMonthlyCapUsd,
      wouldNeedApproval: plan.over,
      automated: plan.automated,
      openOrderId: plan.open?.id ?? null,
    };
  }

  /** Confirmed approval of an order over the cap: resolves its inventory_cap checkpoint, the order is queued. */
  async approve(p: Principal, id: string): Promise<Parsed<typeof SupplierOrder>> {
    const now = this.deps.clock.now();
    const order = await this.deps.store.transaction(async (tx) => {
      const o = await this.owned(tx, p, id);
      if (o.status !== 'pending_approval') throw conflict(`Order is ${o.status}: only an order pending approval can be approved`);
      await this.deps.deals.amendDeal(p, o.deal_id, null, { actor: 'operator', tx }, (deal) => deal.act('order_approval', { confirm: true }));
      await tx.dfyInventory.shift(o.id, 'pending_approval', { status: 'queued', updated_at: now });
      await this.deps.audit.record(tx, p, 'dfy.inventory_approve', `supplier_order:${o.id}`);
      return (await tx.dfyInventory.lock(o.id))!;
    });
    return this.view(this.deps.store.repos, order);
  }

  /**
   * The supplier delivered: each line restocks its aisle through the inventory domain (clamped at max), the
   * refill work order completes, and the cost settles from the estimate to the actual unit costs given,
   * recorded as a purchase order with one FIFO layer per line.
   */
  async receive(p: Principal, id: string, body: Parsed<typeof ReceiveBody>): Promise<Parsed<typeof SupplierOrder>> {
    const now = this.deps.clock.now();
    const order = await this.deps.store.transaction(async (tx) => {
      const o = await this.owned(tx, p, id);
      if (o.status !== 'queued')
        throw conflict(`Order is ${o.status}: ${o.status === 'pending_approval' ? 'it needs a confirmed approval first' : 'nothing to receive'}`);
      const lines = JSON.parse(o.lines_json) as RefillLine[];
      const costs = body.unitCostsUsd ?? {};
      const unit = (l: RefillLine) => (costs[l.sku] === undefined ? l.estUnitCostCents : Math.round(costs[l.sku]! * 100));
      for (const l of lines) {
        if ((await tx.inventory.addStock(o.machine_id, l.aisleNo, l.quantity)) === undefined) throw conflict(`The machine no longer has aisle ${l.aisleNo}`);
      }
      const poId = newId('po', now);
      const lots = lines.map((l, i) => ({
        id: `lot_${poId.slice(3)}_${String(i + 1).padStart(3, '0')}`,
        operator_id: o.operator_id,
        sku: l.sku,
        qty_received: l.quantity,
        qty_remaining: l.quantity,
        unit_cost_cents: unit(l),
        received_at: now,
        purchase_order_ref: `dfy:${o.id}`,
        purchase_order_id: poId,
        line_no: i + 1,
      }));
      const actual = lots.reduce((n, l) => n + l.qty_received * l.unit_cost_cents, 0);
      await tx.inventory.insertPurchaseOrder(
        {
          id: poId,
          operator_id: o.operator_id,
          po_ref: `dfy:${o.id}`,
          vendor: 'DFY supplier',
          ordered_on: formatTimestamp(Number(o.created_at))!.slice(0, 10),
          total_cents: actual,
          received_at: now,
        },
        lots,
      );
      await tx.dfy.updateWorkOrder(o.work_order_id, { state: 'completed', updated_at: now });
      const estimateLeft = lines.some((l) => costs[l.sku] === undefined);
      await tx.dfyInventory.shift(o.id, 'queued', {
        status: 'received',
        actual_cost_cents: estimateLeft ? null : actual,
        purchase_order_id: poId,
        updated_at: now,
      });
      await this.deps.audit.record(tx, p, 'dfy.inventory_receive', `supplier_order:${o.id} purchase:${poId}`);
      return (await tx.dfyInventory.lock(o.id))!;
    });
    return this.view(this.deps.store.repos, order);
  }

  /** Key rule 4: the machine's inventory capability went off: its open orders and their checkpoints are cancelled. */
  async cancelOpen(tx: Repos, machineId: string, now: number): Promise<void> {
    for (const o of await tx.dfyInventory.cancelOpen(machineId, now)) {
      if (o.status !== 'pending_approval') continue;
      await this.deps.deals.amendDeal(null, o.deal_id, null, { actor: 'system', channel: 'system', tx }, (deal) => deal.act('inventory_off'));
    }
  }

  private async plan(repos: Repos, row: Placed, now: number) {
    const settings = await this.deps.settings.settingsOf(row.operator_id, repos);
    const { mode } = await subjectMode(repos, machineSubject(row), settings);
    const lines = refillLines(await repos.inventory.aislesOf([row.machine_id]));
    const spent = await repos.dfyInventory.spentSince(row.machine_id, monthStart(now));
    // the monthly cap bounds the machine's month, moneyThresholdUsd any one order: either sends it to approval
    const approval = orderApprovalReasons(spent, estimatedCents(lines), settings);
    return {
      settings,
      lines,
      spent,
      approval,
      over: approval.length > 0,
      automated: settings.autoInventory && mode.capabilities.inventory.on,
      open: await repos.dfyInventory.openOf(row.machine_id),
    };
  }

  private async place(tx: Repos, p: Principal | null, row: Placed, lines: RefillLine[], approval: string[], now: number): Promise<DfySupplierOrderRow> {
    const over = approval.length > 0;
    const workOrderId = newId('wo', now);
    await tx.dfy.insertWorkOrder({
      id: workOrderId,
      deal_id: row.id,
      operator_id: row.operator_id,
      type: 'dfy_refill',
      state: 'open',
      assignee: null,
      scheduled_for: null,
      created_at: now,
      updated_at: now,
    });
    const order: DfySupplierOrderRow = {
      id: newId('dso', now),
      operator_id: row.operator_id,
      deal_id: row.id,
      machine_id: row.machine_id,
      status: over ? 'pending_approval' : 'queued',
      lines_json: JSON.stringify(lines),
      estimated_cost_cents: estimatedCents(lines),
      actual_cost_cents: null,
      work_order_id: workOrderId,
      purchase_order_id: null,
      created_at: now,
      updated_at: now,
    };
    await tx.dfyInventory.insert(order);
    // through the deals' own service, so the checkpoint also reaches the operator's webhooks and alert rules
    if (over)
      await this.deps.deals.raiseIn(
        tx,
        null,
        row.id,
        'inventory_cap',
        'inventory',
        `supplier order ${order.id}: ${usd(order.estimated_cost_cents)} USD (estimate) is ${approval.join(' and ')}`,
      );
    await this.deps.audit.record(tx, p, 'dfy.inventory_order', `supplier_order:${order.id} ${order.status}`);
    return order;
  }

  private async owned(tx: Repos, p: Principal, id: string): Promise<DfySupplierOrderRow> {
    return requireOwned(p, await tx.dfyInventory.lock(id), () => notFound('Supplier order'));
  }

  private async machineNo(repos: Repos, machineId: string): Promise<string | null> {
    return (await repos.machines.machineById(machineId))?.machine_no ?? null;
  }

  private async view(repos: Repos, o: DfySupplierOrderRow): Promise<Parsed<typeof SupplierOrder>> {
    return {
      id: o.id,
      dealId: o.deal_id,
      machineNo: await this.machineNo(repos, o.machine_id),
      status: o.status as Parsed<typeof SupplierOrder>['status'],
      lines: (JSON.parse(o.lines_json) as RefillLine[]).map(lineView),
      estimatedCostUsd: usd(Number(o.estimated_cost_cents)),
      actualCostUsd: o.actual_cost_cents === null ? null : usd(Number(o.actual_cost_cents)),
      costIsEstimate: o.actual_cost_cents === null,
      workOrderId: o.work_order_id,
      purchaseOrderId: o.purchase_order_id,
      createdAt: formatTimestamp(Number(o.created_at))!,
    };
  }
}

function lineView(l: RefillLine) {
  return {
    aisleNo: l.aisleNo,
    sku: l.sku,
    productName: l.productName,
    quantity: l.quantity,
    retailUsd: usd(l.retailCents),
    estUnitCostUsd: usd(l.estUnitCostCents),
  };
}
