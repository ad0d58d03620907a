import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { AisleRow, AislesTable, DB, LotRow, LotsTable, PurchaseOrderRow, PurchaseOrdersTable } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';
import { allocateFifo, type FifoAllocation } from './fifo.ts';

export interface InventoryMachine {
  id: string;
  machine_no: string;
  name: string;
}

/** A sale as the FIFO draw sees it: which order, which machine and aisle, how many units, when. */
export interface FifoSale {
  orderNumber: string;
  machineId: string;
  aisleNo: number;
  quantity: number;
  now: number;
}

/** What a sale drew: the allocation, and the operator and SKU it drew from (null: nothing to draw from). */
export interface FifoConsumption extends FifoAllocation {
  operatorId: string | null;
  sku: string | null;
}

/**
 * SQL of the inventory domain, the one writer of `aisles`, `lots`, `purchase_orders` and
 * `lot_consumptions`. Takes the database or a transaction.
 */
export class InventoryRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The owner's machines (every machine when null), narrowed to `machineNos` when given (an access-group session). */
  machines(ownerId: string | null, machineNos: readonly string[] | null): Promise<InventoryMachine[]> {
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'name'])
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId))
      .$if(machineNos !== null, (q) => (machineNos?.length ? q.where('machine_no', 'in', machineNos) : q.where(sql<boolean>`1 = 0`)))
      .orderBy('machine_no')
      .execute();
  }

  aislesOf(machineIds: string[]): Promise<AisleRow[]> {
    if (machineIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('aisles').selectAll().where('machine_id', 'in', machineIds).orderBy('machine_id').orderBy('aisle_no').execute();
  }

  /** One aisle, locked for the rest of the transaction on PostgreSQL (SQLite transactions are already serial). */
  lockAisle(machineId: string, aisleNo: number): Promise<AisleRow | undefined> {
    return this.db
      .selectFrom('aisles')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('aisle_no', '=', aisleNo)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async updateAisle(
    machineId: string,
    aisleNo: number,
    set: Partial<Pick<AisleRow, 'current_stock' | 'max_stock' | 'alert_threshold' | 'price_cents' | 'faulted' | 'image_url'>>,
  ) {
    await this.db.updateTable('aisles').set(set).where('machine_id', '=', machineId).where('aisle_no', '=', aisleNo).execute();
  }

  /** Loads a planogram: each listed aisle gets its product, price and stock (a done-for-you machine's first fill). */
  async loadPlanogram(machineId: string, lanes: { aisleNo: number; sku: string; productName: string; priceCents: number; stock: number }[]): Promise<void> {
    for (const l of lanes) {
      await this.db
        .updateTable('aisles')
        .set({ sku: l.sku, product_name: l.productName, price_cents: l.priceCents, current_stock: l.stock })
        .where('machine_id', '=', machineId)
        .where('aisle_no', '=', l.aisleNo)
        .execute();
    }
  }

  /** currentStock = maxStock for the listed aisles (all when `aisleNos` is null). */
  async fill(machineId: string, aisleNos: number[] | null): Promise<void> {
    await this.db
      .updateTable('aisles')
      .set((eb) => ({ current_stock: eb.ref('max_stock') }))
      .where('machine_id', '=', machineId)
      .$if(aisleNos !== null, (q) => q.where('aisle_no', 'in', aisleNos ?? []))
      .execute();
  }

  /** FIFO order: oldest layer first, the order cost of goods is drawn in. */
  async lots(ownerId: string | null, sku: string | undefined, limit: number, offset: number): Promise<{ total: number; rows: LotRow[] }> {
    const base = this.db
      .selectFrom('lots')
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId))
      .$if(sku !== undefined, (q) => q.where('sku', '=', sku ?? ''));
    const rows = await base.selectAll().orderBy('received_at').orderBy('line_no').orderBy('id').limit(limit).offset(offset).execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { total: Number(n), rows };
  }

  /** A new machine's aisles, numbered from 1, empty and unpriced. */
  async insertEmptyAisles(machineId: string, count: number, maxStock: number, alertThreshold: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => ({
      machine_id: machineId,
      aisle_no: i + 1,
      current_stock: 0,
      max_stock: maxStock,
      alert_threshold: alertThreshold,
      price_cents: 0,
      sku: null,
      product_name: null,
      faulted: 0,
    }));
    await this.db.insertInto('aisles').values(rows).execute();
  }

  aisle(machineId: string, aisleNo: number) {
    return this.db
      .selectFrom('aisles')
      .select(['aisle_no', 'current_stock', 'faulted', 'price_cents', 'alert_threshold', 'sku'])
      .where('machine_id', '=', machineId)
      .where('aisle_no', '=', aisleNo)
      .executeTakeFirst();
  }

  /**
   * THE stock move of a vend: `quantity` units leave the aisle in one atomic update, never below zero
   * (the board's report is the truth; stock is clamped). False when the machine has no such aisle.
   */
  async takeStock(machineId: string, aisleNo: number, quantity: number): Promise<boolean> {
    const r = await this.db
      .updateTable('aisles')
      .set((eb) => ({
        current_stock: eb
          .case()
          .when('current_stock', '>', quantity)
          .then(eb('current_stock', '-', quantity))
          .else(0)
          .end(),
      }))
      .where('machine_id', '=', machineId)
      .where('aisle_no', '=', aisleNo)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * THE stock move of a restock, the counterpart of `takeStock`: `quantity` units go into the aisle in one
   * atomic update, clamped at maxStock (an aisle already above it keeps its stock). The stock after, or
   * undefined when the machine has no such aisle.
   */
  async addStock(machineId: string, aisleNo: number, quantity: number): Promise<number | undefined> {
    const r = await this.db
      .updateTable('aisles')
      .set((eb) => ({
        current_stock: eb
          .case()
          .when(eb('current_stock', '+', quantity), '<=', eb.ref('max_stock'))
          .then(eb('current_stock', '+', quantity))
          .when('current_stock', '>=', eb.ref('max_stock'))
          .then(eb.ref('current_stock'))
          .else(eb.ref('max_stock'))
          .end(),
      }))
      .where('machine_id', '=', machineId)
      .where('aisle_no', '=', aisleNo)
      .returning('current_stock')
      .executeTakeFirst();
    return r?.current_stock;
  }

  /** A new machine's aisles as given (an auto-provisioned board's house planogram). */
  async insertAisles(rows: Insertable<AislesTable>[]): Promise<void> {
    await this.db.insertInto('aisles').values(rows).execute();
  }

  /** A received purchase order and its layers, one per line. A repeated (operator, po_ref) is a unique violation. */
  async insertPurchaseOrder(po: Insertable<PurchaseOrdersTable>, lots: Insertable<LotsTable>[]): Promise<void> {
    await this.db.insertInto('purchase_orders').values(po).execute();
    if (lots.length) await this.db.insertInto('lots').values(lots).execute();
  }

  /** Purchase orders, newest received first, with their layers (line order). */
  async purchaseOrders(ownerId: string | null, limit: number, offset: number): Promise<{ total: number; rows: (PurchaseOrderRow & { lots: LotRow[] })[] }> {
    const base = this.db.selectFrom('purchase_orders').$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId));
    const pos = await base.selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const lots = pos.length
      ? await this.db
          .selectFrom('lots')
          .selectAll()
          .where(
            'purchase_order_id',
            'in',
            pos.map((p) => p.id),
          )
          .orderBy('line_no')
          .execute()
      : [];
    return { total: Number(n), rows: pos.map((p) => ({ ...p, lots: lots.filter((l) => l.purchase_order_id === p.id) })) };
  }

  /**
   * THE cost move of a sale (docs/fifo.md): the sold units leave the oldest cost layers of the aisle's
   * SKU, owned by the machine's operator, and each draw is written to `lot_consumptions`. Called only
   * from `SalesService.recordSale`, inside the sale's transaction. An aisle without a SKU, a machine
   * without an operator or a SKU without layers costs zero (the uncovered units are never back-filled).
   * Atomic: on PostgreSQL the layers drawn are row-locked (FOR UPDATE, oldest first, so racing sales
   * queue in one order) and every decrement is conditional on `qty_remaining >= qty`; SQLite
   * transactions are serial. A decrement that finds fewer units than its lock read fails the sale.
   */
  async consumeFifo(sale: FifoSale): Promise<FifoConsumption> {
    const none = (operatorId: string | null, sku: string | null): FifoConsumption => ({
      draws: [],
      uncovered: sale.quantity,
      costCents: 0,
      operatorId,
      sku,
    });
    const src = await this.db
      .selectFrom('aisles')
      .innerJoin('machines', 'machines.id', 'aisles.machine_id')
      .select(['aisles.sku', 'machines.operator_id'])
      .where('aisles.machine_id', '=', sale.machineId)
      .where('aisles.aisle_no', '=', sale.aisleNo)
      .executeTakeFirst();
    const operatorId = src?.operator_id ?? null;
    const sku = src?.sku ?? null;
    if (operatorId === null || sku === null || sale.quantity <= 0) return none(operatorId, sku);
    // Every layer holds at least one unit, so `quantity` layers always suffice.
    const layers = await this.db
      .selectFrom('lots')
      .select(['id', 'qty_remaining', 'unit_cost_cents'])
      .where('operator_id', '=', operatorId)
      .where('sku', '=', sku)
      .where('qty_remaining', '>', 0)
      .orderBy('received_at')
      .orderBy('line_no')
      .orderBy('id')
      .limit(sale.quantity)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    const alloc = allocateFifo(
      layers.map((l) => ({ id: l.id, qtyRemaining: l.qty_remaining, unitCostCents: l.unit_cost_cents })),
      sale.quantity,
    );
    for (const d of alloc.draws) {
      const r = await this.db
        .updateTable('lots')
        .set((eb) => ({ qty_remaining: eb('qty_remaining', '-', d.qty) }))
        .where('id', '=', d.lotId)
        .where('qty_remaining', '>=', d.qty)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new Error(`FIFO layer ${d.lotId} holds fewer than ${d.qty} units under its lock`);
    }
    if (alloc.draws.length)
      await this.db
        .insertInto('lot_consumptions')
        .values(
          alloc.draws.map((d) => ({
            id: newId('lcn', sale.now),
            operator_id: operatorId,
            order_number: sale.orderNumber,
            machine_id: sale.machineId,
            lot_id: d.lotId,
            sku,
            qty: d.qty,
            unit_cost_cents: d.unitCostCents,
            cost_cents: d.costCents,
            consumed_at: sale.now,
          })),
        )
        .execute();
    return { ...alloc, operatorId, sku };
  }
}
