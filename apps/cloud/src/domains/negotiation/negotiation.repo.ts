import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, DfyNegotiationMandateRow, DfyNegotiationRow, DfyNegotiationTurnRow } from '../../db/schema.ts';

/** SQL of the negotiation: the one writer of `dfy_negotiation_mandates`, `dfy_negotiations` and `dfy_negotiation_turns`. */
export class NegotiationRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insertMandate(row: DfyNegotiationMandateRow): Promise<void> {
    await this.db.insertInto('dfy_negotiation_mandates').values(row).execute();
  }

  latestMandate(dealId: string): Promise<DfyNegotiationMandateRow | undefined> {
    return this.db.selectFrom('dfy_negotiation_mandates').selectAll().where('deal_id', '=', dealId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  }

  mandates(dealId: string): Promise<DfyNegotiationMandateRow[]> {
    return this.db.selectFrom('dfy_negotiation_mandates').selectAll().where('deal_id', '=', dealId).orderBy('version').execute();
  }

  async insertNegotiation(row: DfyNegotiationRow): Promise<void> {
    await this.db.insertInto('dfy_negotiations').values(row).execute();
  }

  /** The negotiation row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lockNegotiation(dealId: string): Promise<DfyNegotiationRow | undefined> {
    return this.db
      .selectFrom('dfy_negotiations')
      .selectAll()
      .where('deal_id', '=', dealId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  negotiation(dealId: string): Promise<DfyNegotiationRow | undefined> {
    return this.db.selectFrom('dfy_negotiations').selectAll().where('deal_id', '=', dealId).executeTakeFirst();
  }

  async saveNegotiation(
    dealId: string,
    set: Pick<DfyNegotiationRow, 'status' | 'rounds' | 'out_of_mandate_asks' | 'outcome_json' | 'updated_at'> & { mandate_version?: number },
  ): Promise<void> {
    await this.db.updateTable('dfy_negotiations').set(set).where('deal_id', '=', dealId).execute();
  }

  /** The operator's negotiations (all for null), oldest first. */
  negotiations(operatorId: string | null, f: { vertical?: string; status?: string } = {}): Promise<DfyNegotiationRow[]> {
    return this.db
      .selectFrom('dfy_negotiations')
      .selectAll()
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .$if(f.vertical !== undefined, (q) => q.where('vertical', '=', f.vertical!))
      .$if(f.status !== undefined, (q) => q.where('status', '=', f.status!))
      .orderBy('created_at')
      .orderBy('deal_id')
      .execute();
  }

  async insertTurn(row: DfyNegotiationTurnRow): Promise<void> {
    await this.db.insertInto('dfy_negotiation_turns').values(row).execute();
  }

  turns(dealId: string): Promise<DfyNegotiationTurnRow[]> {
    return this.db.selectFrom('dfy_negotiation_turns').selectAll().where('deal_id', '=', dealId).orderBy('seq').execute();
  }
}
