import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { newId } from '../../crypto/ids.ts';
import { mintSecret, type Sealer } from '../../crypto/secrets.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { WebhookDeliveryService } from './webhook-delivery.service.ts';
import type { WebhookEvents } from './webhook-events.ts';
import { MAX_ENDPOINTS } from './webhooks.rules.ts';
import type { CreateEndpointBody, Delivery, Endpoint, EndpointWithSecret } from './webhooks.schemas.ts';

export interface WebhooksDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  sealer: Sealer;
  events: WebhookEvents;
  delivery: WebhookDeliveryService;
  config: Pick<Config, 'mode'>;
}

const endpointNotFound = () => notFound('Webhook');

/**
 * Outbound webhook subscriptions (issue 20; docs/webhooks-outbound.md): an operator's endpoints, their
 * signing secrets (shown once, kept sealed because every delivery is signed with them), the test event
 * and the deliveries log. Another operator's endpoint answers 404.
 */
export class WebhooksService {
  constructor(private readonly d: WebhooksDeps) {}

  async create(p: Principal, body: CreateEndpointBody): Promise<EndpointWithSecret> {
    this.checkUrl(body.url);
    const now = this.d.clock.now();
    const id = newId('whe', now);
    const secret = newSecret();
    await this.d.store.transaction(async (tx) => {
      if ((await tx.webhooks.countOf(p.operatorId)) >= MAX_ENDPOINTS) throw badRequest(`At most ${MAX_ENDPOINTS} webhook endpoints per operator`);
      await tx.webhooks.insertEndpoint({
        id,
        operator_id: p.operatorId,
        url: body.url,
        event_types: body.eventTypes.join(' '),
        description: body.description ?? null,
        secret_sealed: this.d.sealer.seal(secret),
        created_at: now,
      });
      await this.d.audit.record(tx, p, 'webhooks.create', `webhook:${id}`);
    });
    return { ...(await this.get(p, id)), secret };
  }

  async list(p: Principal): Promise<Endpoint[]> {
    return (await this.d.store.repos.webhooks.endpointsOf(p.operatorId)).map(endpointView);
  }

  async get(p: Principal, id: string): Promise<Endpoint> {
    return endpointView(await this.own(p, id));
  }

  /** Deletes the endpoint with its pending deliveries and log; answers it as it was. */
  async remove(p: Principal, id: string): Promise<Endpoint> {
    const before = await this.get(p, id);
    await this.d.store.transaction(async (tx) => {
      if (!(await tx.webhooks.deleteEndpoint(p.operatorId, id))) throw endpointNotFound();
      await this.d.audit.record(tx, p, 'webhooks.delete', `webhook:${id}`);
    });
    return before;
  }

  /** A new secret replaces the old one at once: deliveries from now on are signed with it. */
  async rotateSecret(p: Principal, id: string): Promise<EndpointWithSecret> {
    const secret = newSecret();
    await this.d.store.transaction(async (tx) => {
      if (!(await tx.webhooks.endpoint(p.operatorId, id))) throw endpointNotFound();
      await tx.webhooks.setSecret(id, this.d.sealer.seal(secret), this.d.clock.now());
      await this.d.audit.record(tx, p, 'webhooks.rotate_secret', `webhook:${id}`);
    });
    return { ...(await this.get(p, id)), secret };
  }

  /** Turns a disabled endpoint back on; its deliveries still pending resume in order. */
  async enable(p: Principal, id: string): Promise<Endpoint> {
    await this.d.store.transaction(async (tx) => {
      if (!(await tx.webhooks.endpoint(p.operatorId, id))) throw endpointNotFound();
      await tx.webhooks.enable(id, this.d.clock.now());
      await this.d.audit.record(tx, p, 'webhooks.enable', `webhook:${id}`);
    });
    return this.get(p, id);
  }

  /** Sends a `webhook.test` event to the endpoint now (even a disabled one) and answers that delivery after its first attempt. */
  async sendTest(p: Principal, id: string): Promise<Delivery> {
    const deliveryId = await this.d.store.transaction(async (tx) => {
      if (!(await tx.webhooks.endpoint(p.operatorId, id))) throw endpointNotFound();
      const made = await this.d.events.emitTest(tx, p.operatorId, id);
      await this.d.audit.record(tx, p, 'webhooks.test', `webhook:${id}`);
      return made;
    });
    await this.d.delivery.deliverNow(deliveryId);
    return deliveryView((await this.d.store.repos.webhooks.dueById(deliveryId))!);
  }

  async deliveries(p: Principal, id: string, q: Paging & { status?: Delivery['status'] | undefined }): Promise<Page<Delivery>> {
    await this.own(p, id);
    const { total, rows } = await this.d.store.repos.webhooks.deliveriesOf(id, q.status, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(deliveryView) };
  }

  private async own(p: Principal, id: string): Promise<WebhookEndpointRow> {
    const row = await this.d.store.repos.webhooks.endpoint(p.operatorId, id);
    if (!row) throw endpointNotFound();
    return row;
  }

  /** Only http(s); production endpoints must use TLS, since the bodies carry sales and machine data. */
  private checkUrl(raw: string): void {
    const url = new URL(raw);
    const allowed = this.d.config.mode === 'production' ? ['https:'] : ['https:', 'http:'];
    if (!allowed.includes(url.protocol)) throw badRequest(`url must use ${allowed.join(' or ').replaceAll(':', '')}`);
    if (url.username || url.password) throw badRequest('url must not carry credentials');
  }
}

function newSecret(): string {
  return `whsec_${mintSecret()}`;
}

function endpointView(r: WebhookEndpointRow): Endpoint {
  return {
    id: r.id,
    url: r.url,
    eventTypes: r.event_types.split(' '),
    description: r.description,
    enabled: r.enabled === 1,
    consecutiveFailures: r.consecutive_failures,
    disabledAt: formatTimestamp(r.disabled_at),
    createdAt: formatTimestamp(r.created_at)!,
  };
}

function deliveryView(r: WebhookDeliveryRow & { type: string }): Delivery {
  return {
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    status: r.status as Delivery['status'],
    attempts: r.attempts,
    responseCode: r.response_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? formatTimestamp(r.next_attempt_at) : null,
    lastAttemptAt: formatTimestamp(r.last_attempt_at),
    createdAt: formatTimestamp(r.created_at)!,
  };
}
