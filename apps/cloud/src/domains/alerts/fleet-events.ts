import type { Repos } from '../../repos.ts';
import type { EventSink, OutboundEvent, WebhookEvents } from '../webhooks/webhook-events.ts';
import type { AlertsService } from './alerts.service.ts';

/**
 * What the domains emit fleet events into: the webhook outbox and the alert rules, both in the caller's
 * transaction, so an event, its deliveries and the alerts it opens or clears commit with the change.
 */
export class FleetEvents implements EventSink {
  constructor(private readonly d: { outbox: Pick<WebhookEvents, 'emit'>; alerts: Pick<AlertsService, 'evaluate'> }) {}

  async emit(tx: Repos, e: OutboundEvent): Promise<string | null> {
    const id = await this.d.outbox.emit(tx, e);
    await this.d.alerts.evaluate(tx, e);
    return id;
  }
}
