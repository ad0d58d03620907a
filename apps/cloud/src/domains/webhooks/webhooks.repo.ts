import type { Kysely } from 'kysely';
import type { DB, WebhookDeliveryRow, WebhookEndpointRow, WebhookEventRow } from '../../db/schema.ts';

export type NewEndpoint = Omit<WebhookEndpointRow, 'enabled' | 'consecutive_failures' | 'disabled_at' | 'updated_at'>;

/** A delivery ready to send: its row, the event body and the endpoint's URL and sealed secret. */
export interface DueDelivery extends WebhookDeliveryRow {
  url: string;
  secret_sealed: string;
  type: string;
  body: string;
  event_created_at: number;
}

/** A delivery as its endpoint's owner lists it. */
export interface DeliveryOfEndpoint extends WebhookDeliveryRow {
  type: string;
}

/**
 * SQL of the webhooks domain: the one writer of `webhook_endpoints`, `webhook_streams`, `webhook_events`
 * and `webhook_deliveries`.
 */
export class WebhooksRepo {
  constructor(private readonly db: Kysely<DB>) {}

  // ---- endpoints

  insertEndpoint(row: NewEndpoint): Promise<unknown> {
    return this.db
      .insertInto('webhook_endpoints')
      .values({ ...row, enabled: 1, consecutive_failures: 0, disabled_at: null, updated_at: row.created_at })
      .execute();
  }

  endpoint(operatorId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
  }

  endpointsOf(operatorId: string): Promise<WebhookEndpointRow[]> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('operator_id', '=', operatorId).orderBy('created_at').orderBy('id').execute();
  }

  async countOf(operatorId: string): Promise<number> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('operator_id', '=', operatorId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async deleteEndpoint(operatorId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async setSecret(id: string, sealed: string, now: number): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ secret_sealed: sealed, updated_at: now }).where('id', '=', id).execute();
  }

  /** Turns the endpoint back on with a clean failure count. */
  async enable(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ enabled: 1, consecutive_failures: 0, disabled_at: null, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async resetFailures(id: string): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set({ consecutive_failures: 0 }).where('id', '=', id).where('consecutive_failures', '>', 0).execute();
  }

  /** Counts one more failed attempt; disables the endpoint when the count reaches `limit`. Answers the new count. */
  async countFailure(id: string, limit: number, now: number): Promise<number> {
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', id)
      .returning('consecutive_failures')
      .executeTakeFirst();
    const n = Number(row?.consecutive_failures ?? 0);
    if (n >= limit) {
      await this.db
        .updateTable('webhook_endpoints')
        .set({ enabled: 0, disabled_at: now, updated_at: now })
        .where('id', '=', id)
        .where('enabled', '=', 1)
        .execute();
    }
    return n;
  }

  /** The operator's enabled endpoints; the caller filters by event type (stored space-separated). */
  enabledEndpoints(operatorId: string): Promise<Pick<WebhookEndpointRow, 'id' | 'event_types'>[]> {
    return this.db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('operator_id', '=', operatorId).where('enabled', '=', 1).execute();
  }

  // ---- outbox

  /**
   * The next sequence number of one ordering stream. The upsert takes the stream's row lock until the
   * transaction ends, so of two changes on one machine the one that commits first gets the lower number.
   */
  async nextSeq(operatorId: string, stream: string): Promise<number> {
    const row = await this.db
      .insertInto('webhook_streams')
      .values({ operator_id: operatorId, stream, seq: 1 })
      .onConflict((oc) => oc.columns(['operator_id', 'stream']).doUpdateSet((eb) => ({ seq: eb('webhook_streams.seq', '+', 1) })))
      .returning('seq')
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async insertEvent(row: WebhookEventRow): Promise<void> {
    await this.db.insertInto('webhook_events').values(row).execute();
  }

  async insertDeliveries(rows: WebhookDeliveryRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('webhook_deliveries').values(rows).execute();
  }

  // ---- deliveries

  private dueBase() {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
      .selectAll('d')
      .select(['e.url', 'e.secret_sealed', 'v.type', 'v.body', 'v.created_at as event_created_at']);
  }

  /**
   * Pending deliveries due by `now` on enabled endpoints, each the head of its (endpoint, stream): a
   * later event of a machine waits until the earlier one is delivered or given up.
   */
  dueHeads(now: number, limit: number): Promise<DueDelivery[]> {
    return this.dueBase()
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('e.enabled', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as p')
              .select('p.id')
              .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
              .whereRef('p.stream', '=', 'd.stream')
              .whereRef('p.seq', '<', 'd.seq')
              .where('p.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('d.next_attempt_at')
      .orderBy('d.seq')
      .limit(limit)
      .execute();
  }

  dueById(id: string): Promise<DueDelivery | undefined> {
    return this.dueBase().where('d.id', '=', id).executeTakeFirst();
  }

  /**
   * Claims a pending delivery for one attempt by moving its next try past the attempt's timeout; false
   * when another tick claimed it first (the compare on `next_attempt_at` is the lock).
   */
  async claim(id: string, seenNextAt: number, until: number): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: until })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', seenNextAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async recordAttempt(
    id: string,
    outcome: Pick<WebhookDeliveryRow, 'status' | 'next_attempt_at' | 'response_code' | 'last_error'> & { at: number },
  ): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: outcome.status,
        next_attempt_at: outcome.next_attempt_at,
        response_code: outcome.response_code,
        last_error: outcome.last_error,
        last_attempt_at: outcome.at,
        updated_at: outcome.at,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .execute();
  }

  async deliveriesOf(endpointId: string, status: string | undefined, limit: number, offset: number): Promise<{ total: number; rows: DeliveryOfEndpoint[] }> {
    const base = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
      .where('d.endpoint_id', '=', endpointId)
      .$if(status !== undefined, (q) => q.where('d.status', '=', status!));
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base.selectAll('d').select('v.type').orderBy('d.created_at', 'desc').orderBy('d.seq', 'desc').limit(limit).offset(offset).execute(),
    ]);
    return { total: Number(count.n), rows };
  }
}
