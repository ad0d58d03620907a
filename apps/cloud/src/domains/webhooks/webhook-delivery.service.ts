import type { Logger } from 'pino';
import type { Clock } from '@vend/protocol';
import type { Sealer } from '../../crypto/secrets.ts';
import type { AppStore } from '../../repos.ts';
import { signWebhook } from '../../http/webhook-signature.ts';
import type { DueDelivery } from './webhooks.repo.ts';
import { ATTEMPT_TIMEOUT_MS, DISABLE_AFTER_FAILURES, isDelivered, nextAttemptAt } from './webhooks.rules.ts';
import type { SendResult, WebhookSender } from './webhook-sender.ts';

export interface WebhookDeliveryDeps {
  store: AppStore;
  clock: Clock;
  sealer: Sealer;
  sender: WebhookSender;
  logger: Logger;
  /** One attempt's limit (tests shorten it). */
  timeoutMs?: number;
}

/** Most deliveries one tick sends (each the head of its own machine's stream, so they go out together). */
const BATCH = 50;

/**
 * The delivery loop's work (docs/webhooks-outbound.md): sends due outbox deliveries, each signed like the
 * inbound webhooks, and records the outcome; a failure is retried with exponential backoff until 24 h
 * after the event, and enough failures in a row disable the endpoint.
 */
export class WebhookDeliveryService {
  private readonly timeoutMs: number;
  constructor(private readonly d: WebhookDeliveryDeps) {
    this.timeoutMs = d.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  }

  /** One tick: answers how many deliveries were attempted. */
  async deliverDue(): Promise<number> {
    const due = await this.d.store.repos.webhooks.dueHeads(this.d.clock.now(), BATCH);
    const sent = await Promise.all(due.map((row) => this.attempt(row)));
    return sent.filter(Boolean).length;
  }

  /** Attempts one delivery now, whatever its schedule (the test event); answers false when it was not pending. */
  async deliverNow(id: string): Promise<boolean> {
    const row = await this.d.store.repos.webhooks.dueById(id);
    return row !== undefined && row.status === 'pending' && this.attempt(row);
  }

  private async attempt(row: DueDelivery): Promise<boolean> {
    const repo = this.d.store.repos.webhooks;
    const start = this.d.clock.now();
    // a second tick (or a test event racing the loop) that reads the same row loses the claim
    if (!(await repo.claim(row.id, row.next_attempt_at, start + this.timeoutMs + 1000))) return false;
    const result = await this.send(row, start);
    const at = this.d.clock.now();
    const attempts = row.attempts + 1;
    await this.d.store.transaction(async (tx) => {
      if ('status' in result && isDelivered(result.status)) {
        await tx.webhooks.recordAttempt(row.id, { status: 'delivered', next_attempt_at: at, response_code: result.status, last_error: null, at });
        await tx.webhooks.resetFailures(row.endpoint_id);
        return;
      }
      const next = nextAttemptAt(row.event_created_at, attempts, at);
      await tx.webhooks.recordAttempt(row.id, {
        status: next === null ? 'failed' : 'pending',
        next_attempt_at: next ?? at,
        response_code: 'status' in result ? result.status : null,
        last_error: 'error' in result ? result.error : `HTTP ${result.status}`,
        at,
      });
      const failures = await tx.webhooks.countFailure(row.endpoint_id, DISABLE_AFTER_FAILURES, at);
      if (failures === DISABLE_AFTER_FAILURES)
        this.d.logger.warn({ endpointId: row.endpoint_id, failures }, 'webhook endpoint disabled after consecutive failures');
    });
    return true;
  }

  private send(row: DueDelivery, now: number): Promise<SendResult> {
    const timestamp = Math.floor(now / 1000);
    const headers = {
      'x-vend-timestamp': String(timestamp),
      'x-vend-signature': signWebhook(this.d.sealer.open(row.secret_sealed), timestamp, row.body),
      'x-vend-event-id': row.event_id,
      'x-vend-event-type': row.type,
      'x-vend-delivery-attempt': String(row.attempts + 1),
    };
    return this.d.sender.post(row.url, headers, row.body, this.timeoutMs);
  }
}
