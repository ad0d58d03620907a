import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** A vended, paid-or-free sale as the audit counts it. */
export interface AuditSale {
  aisle_no: number;
  quantity: number;
  charged_cents: number;
  pay_method: string;
  created_at: number;
}

/**
 * Reads of the DEX export and import. The domain writes no table: orders, aisles and dispense reports
 * belong to their own domains; this repo only reads them.
 */
export class DexRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The machine's sales that vended and stayed sold (not refunded), before `until`. */
  salesBefore(machineId: string, until: number): Promise<AuditSale[]> {
    return this.db
      .selectFrom('orders')
      .select(['aisle_no', 'quantity', 'charged_cents', 'pay_method', 'created_at'])
      .where('machine_id', '=', machineId)
      .where('vended', '=', 1)
      .where('pay_status', '=', 'shipped')
      .where('created_at', '<', until)
      .execute();
  }

  aisles(machineId: string) {
    return this.db.selectFrom('aisles').select(['aisle_no', 'price_cents', 'sku']).where('machine_id', '=', machineId).orderBy('aisle_no').execute();
  }

  /** When the board reported failed vends, before `until`. */
  failedVendTimes(machineId: string, until: number): Promise<{ received_at: number }[]> {
    return this.db
      .selectFrom('dispense_reports')
      .select('received_at')
      .where('machine_id', '=', machineId)
      .where('success', '=', 0)
      .where('received_at', '<', until)
      .execute();
  }
}
