import type { Insertable, Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { AisleRow, AislesTable, DB, LotRow } from '../../db/schema.ts';

export interface InventoryMachine {
  id: string;
  machine_no: string;
  name: string;
}

/** SQL of the inventory domain, the one writer of `aisles` and `lots`. Takes the database or a transaction. */
export class InventoryRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  machines(ownerId: string | null): Promise<InventoryMachine[]> {
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'name'])
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId))
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
    set: Partial<Pick<AisleRow, 'current_stock' | 'max_stock' | 'alert_threshold' | 'price_cents' | 'faulted'>>,
  ) {
    await this.db.updateTable('aisles').set(set).where('machine_id', '=', machineId).where('aisle_no', '=', aisleNo).execute();
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
    const rows = await base.selectAll().orderBy('received_at').orderBy('id').limit(limit).offset(offset).execute();
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
      .select(['aisle_no', 'current_stock', 'faulted', 'price_cents'])
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

  /** A new machine's aisles as given (an auto-provisioned board's house planogram). */
  async insertAisles(rows: Insertable<AislesTable>[]): Promise<void> {
    await this.db.insertInto('aisles').values(rows).execute();
  }
}
