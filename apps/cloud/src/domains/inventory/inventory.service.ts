import { isClaimableSerial } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import type { AisleRow, LotRow, PurchaseOrderRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../crypto/ids.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { fenceFilter, requireMachineAccess } from '../machines/ownership.ts';
import type { InventoryMachine, InventoryRepo } from './inventory.repo.ts';
import type { EventSink } from '../webhooks/webhook-events.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import type { Aisle, AislePatch, Lot, MachineInventory, PurchaseInput, PurchaseOrder, RestockInput } from './inventory.schemas.ts';

export function toAisle(row: AisleRow): Aisle {
  return {
    aisleNo: row.aisle_no,
    currentStock: row.current_stock,
    maxStock: row.max_stock,
    alertThreshold: row.alert_threshold,
    sellingPrice: centsToDecimal(row.price_cents),
    faulted: row.faulted === 1,
    low: row.current_stock <= row.alert_threshold,
    sku: row.sku,
    productName: row.product_name,
    imageUrl: row.image_url,
  };
}

function toLot(row: LotRow): Lot {
  return {
    id: row.id,
    sku: row.sku,
    qtyReceived: row.qty_received,
    qtyRemaining: row.qty_remaining,
    unitCost: centsToDecimal(row.unit_cost_cents),
    unitCostCents: row.unit_cost_cents,
    receivedAt: formatTimestamp(row.received_at) ?? '',
    purchaseOrderRef: row.purchase_order_ref,
  };
}

/** A 400 in the catalogue form (spec 1 §7): the catalogue text, then where and why. */
const refuse = (path: string, message: string) => badRequest(undefined, [{ path, message }]);

/**
 * The rules that make an aisle make sense, checked on the aisle as it would be after a write:
 * stock within 0..maxStock and the alert threshold no higher than maxStock (else it is always low).
 * Returns the first broken rule.
 */
export function aisleProblem(a: Pick<AisleRow, 'current_stock' | 'max_stock' | 'alert_threshold'>): string | null {
  if (a.current_stock > a.max_stock) return `currentStock (${a.current_stock}) cannot exceed maxStock (${a.max_stock})`;
  if (a.alert_threshold > a.max_stock) return `alertThreshold (${a.alert_threshold}) cannot exceed maxStock (${a.max_stock})`;
  return null;
}

function toPurchaseOrder(row: PurchaseOrderRow & { lots: LotRow[] }): PurchaseOrder {
  return {
    id: row.id,
    vendor: row.vendor,
    poRef: row.po_ref,
    orderedOn: row.ordered_on,
    receivedAt: formatTimestamp(row.received_at) ?? '',
    total: centsToDecimal(row.total_cents),
    totalCents: row.total_cents,
    lots: row.lots.map(toLot),
  };
}

export interface InventoryDeps {
  store: AppStore;
  audit: AuditLog;
  clock: Clock;
  /** Fleet events: an aisle marked faulted reaches the operator's webhooks and alert rules. */
  events: EventSink;
}

/** Aisle-level inventory (spec 1 §4.4): reads for the caller's machines, partial aisle edits and restocks. */
export class InventoryService {
  constructor(private readonly deps: InventoryDeps) {}

  private async machineOf(tx: Repos, p: Principal, machineNo: string): Promise<MachineRef> {
    // A string that breaks the serial rule names no machine (and may hold bytes the store refuses, like NUL).
    return requireMachineAccess(p, isClaimableSerial(machineNo) ? await tx.machines.machineByNo(machineNo) : undefined);
  }

  private async inventoryOf(repo: InventoryRepo, machine: InventoryMachine): Promise<MachineInventory> {
    const rows = await repo.aislesOf([machine.id]);
    return { machineNo: machine.machine_no, name: machine.name, aisles: rows.map(toAisle) };
  }

  /** Every machine the caller sees (admins: all), each with its aisles. */
  async all(p: Principal): Promise<MachineInventory[]> {
    const repo = this.deps.store.repos.inventory;
    const machines = await repo.machines(ownerFilter(p), fenceFilter(p));
    const byMachine = new Map<string, Aisle[]>(machines.map((m) => [m.id, []]));
    for (const row of await repo.aislesOf(machines.map((m) => m.id))) byMachine.get(row.machine_id)?.push(toAisle(row));
    return machines.map((m) => ({ machineNo: m.machine_no, name: m.name, aisles: byMachine.get(m.id) ?? [] }));
  }

  async machine(p: Principal, machineNo: string): Promise<MachineInventory> {
    const repos = this.deps.store.repos;
    return this.inventoryOf(repos.inventory, await this.machineOf(repos, p, machineNo));
  }

  /** currentStock = maxStock for every aisle, or only the listed ones; an aisle the machine lacks refuses the whole restock. */
  async restock(p: Principal, machineNo: string, input: RestockInput): Promise<MachineInventory & { restocked: number[] }> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.inventory;
      const machine = await this.machineOf(tx, p, machineNo);
      const have = (await repo.aislesOf([machine.id])).map((a) => a.aisle_no);
      const wanted = input.aisles ? [...new Set(input.aisles)].sort((a, b) => a - b) : null;
      if (wanted) {
        const missing = wanted.filter((n) => !have.includes(n));
        if (missing.length) throw refuse('body.aisles', `Machine ${machine.machine_no} has no aisle ${missing.join(', ')}`);
      }
      await repo.fill(machine.id, wanted);
      const restocked = wanted ?? have;
      await this.deps.audit.record(tx, p, 'inventory.restock', `machine:${machine.machine_no}${wanted ? `/aisles:${wanted.join(',')}` : ''}`);
      return { ...(await this.inventoryOf(repo, machine)), restocked };
    });
  }

  /** Changes only the sent fields; refuses (400, nothing written) an aisle the machine lacks or a result that breaks a rule. */
  async updateAisle(p: Principal, machineNo: string, aisleNo: number, patch: AislePatch): Promise<Aisle & { machineNo: string }> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.inventory;
      const machine = await this.machineOf(tx, p, machineNo);
      const row = await repo.lockAisle(machine.id, aisleNo);
      if (!row) throw refuse('params.aisleNo', `Machine ${machine.machine_no} has no aisle ${aisleNo}`);
      const set: Parameters<InventoryRepo['updateAisle']>[2] = {};
      if (patch.currentStock !== undefined) set.current_stock = patch.currentStock;
      if (patch.maxStock !== undefined) set.max_stock = patch.maxStock;
      if (patch.alertThreshold !== undefined) set.alert_threshold = patch.alertThreshold;
      if (patch.sellingPrice !== undefined) set.price_cents = patch.sellingPrice;
      if (patch.faulted !== undefined) set.faulted = patch.faulted ? 1 : 0;
      if (patch.imageUrl !== undefined) set.image_url = patch.imageUrl;
      const after = { ...row, ...set };
      const problem = aisleProblem(after);
      if (problem) throw refuse('body', problem);
      await repo.updateAisle(machine.id, aisleNo, set);
      await this.deps.audit.record(tx, p, 'inventory.aisle.update', `machine:${machine.machine_no}/aisle:${aisleNo}`);
      if (row.faulted === 0 && set.faulted === 1) {
        await this.deps.events.emit(tx, {
          operatorId: machine.operator_id,
          type: 'aisle.fault',
          machineNo: machine.machine_no,
          data: { aisleNo, source: 'operator' },
        });
      }
      return { machineNo: machine.machine_no, ...toAisle(after) };
    });
  }

  /** FIFO cost layers of the caller (admins: every operator's), oldest first. */
  async lots(p: Principal, q: Paging & { sku?: string | undefined }): Promise<Page<Lot>> {
    const { total, rows } = await this.deps.store.repos.inventory.lots(ownerFilter(p), q.sku, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(toLot) };
  }

  /**
   * Receives a purchase order for the caller's operator: one FIFO cost layer per line, received now
   * (the layer's place in FIFO order: receipt time, then line number). A `poRef` the operator has
   * already received is 409 and nothing is written (docs/decisions/finance.md "FIFO cost").
   */
  async receivePurchase(p: Principal, input: PurchaseInput): Promise<PurchaseOrder> {
    const now = this.deps.clock.now();
    const id = newId('po', now);
    const lots = input.lines.map((l, i) => ({
      id: `lot_${id.slice(3)}_${String(i + 1).padStart(3, '0')}`,
      operator_id: p.operatorId,
      sku: l.sku,
      qty_received: l.qty,
      qty_remaining: l.qty,
      unit_cost_cents: l.unitCostUsd,
      received_at: now,
      purchase_order_ref: input.poRef,
      purchase_order_id: id,
      line_no: i + 1,
    }));
    const po = {
      id,
      operator_id: p.operatorId,
      po_ref: input.poRef,
      vendor: input.vendor,
      ordered_on: input.orderedOn,
      total_cents: lots.reduce((n, l) => n + l.qty_received * l.unit_cost_cents, 0),
      received_at: now,
    };
    const taken = () => conflict(`Purchase order ${input.poRef} was already received`);
    try {
      await this.deps.store.transaction(async (tx) => {
        await tx.inventory.insertPurchaseOrder(po, lots);
        await this.deps.audit.record(tx, p, 'inventory.purchase.receive', `purchase:${id} poRef:${input.poRef}`);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw taken();
      throw e;
    }
    return toPurchaseOrder({ ...po, lots: lots.map((l) => ({ ...l })) });
  }

  /** Purchase orders of the caller (admins: every operator's), newest received first. */
  async purchases(p: Principal, q: Paging): Promise<Page<PurchaseOrder>> {
    const { total, rows } = await this.deps.store.repos.inventory.purchaseOrders(ownerFilter(p), q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(toPurchaseOrder) };
  }
}
