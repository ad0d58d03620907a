import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { Repos } from '../../repos.ts';

/** Every event an endpoint can subscribe to (docs/webhooks-outbound.md lists what each carries). */
export const EVENT_TYPES = [
  'machine.online',
  'machine.offline',
  'aisle.low',
  'aisle.out',
  'aisle.fault',
  'dispense.failed',
  'order.paid',
  'order.refund_owed',
  'order.refund_failed',
  'command.acknowledged',
  'command.expired',
  'campaign.approved',
  'campaign.rejected',
  'dfy.checkpoint_raised',
  'agent.upgrade_blocked',
  'agent.upgrade_reverted',
  'alert.opened',
  'alert.cleared',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by `POST /webhooks/{id}/test`, to that endpoint; never subscribed to. */
export const TEST_EVENT = 'webhook.test';

export interface OutboundEvent {
  /** null for a machine no operator owns yet (nobody to tell): nothing is recorded. */
  operatorId: string | null;
  type: EventType;
  /** The machine the event is about: its deliveries keep the order in which its changes committed. */
  machineNo: string | null;
  data: Record<string, unknown>;
}

/** What a domain hands its fleet events to, inside the transaction of the change (the outbox, or the outbox plus alert rules). */
export interface EventSink {
  emit(tx: Repos, e: OutboundEvent): Promise<unknown>;
}

/** Where deliveries of events of no machine are ordered. */
const OPERATOR_STREAM = '';

/**
 * The outbox: what a domain calls, inside the transaction of the change it reports, to have the change
 * delivered to the operator's subscribed endpoints. The event and its deliveries commit with the change
 * or not at all: nothing is lost on a crash after the commit, nothing is sent for a rolled-back change.
 */
export class WebhookEvents implements EventSink {
  constructor(private readonly deps: { clock: Clock }) {}

  /** Records the event for every enabled endpoint of the operator subscribed to its type; answers its id, or null when none is. */
  async emit(tx: Repos, e: OutboundEvent): Promise<string | null> {
    if (e.operatorId === null) return null;
    const done = await this.enqueue(tx, e.operatorId, e.type, e.machineNo, e.data, (types) => types.split(' ').includes(e.type));
    return done?.eventId ?? null;
  }

  /** One test event for one endpoint (its own stream, so it never waits behind a machine's backlog); answers its delivery id. */
  async emitTest(tx: Repos, operatorId: string, endpointId: string): Promise<string> {
    const done = await this.enqueue(tx, operatorId, TEST_EVENT, null, { endpointId }, null, endpointId);
    return done!.deliveryIds[0]!;
  }

  private async enqueue(
    tx: Repos,
    operatorId: string,
    type: string,
    machineNo: string | null,
    data: Record<string, unknown>,
    subscribed: ((types: string) => boolean) | null,
    onlyEndpoint?: string,
  ): Promise<{ eventId: string; deliveryIds: string[] } | null> {
    const endpoints = onlyEndpoint
      ? [onlyEndpoint]
      : (await tx.webhooks.enabledEndpoints(operatorId)).filter((ep) => subscribed!(ep.event_types)).map((ep) => ep.id);
    if (endpoints.length === 0) return null;
    const now = this.deps.clock.now();
    const stream = onlyEndpoint ? `test:${onlyEndpoint}` : (machineNo ?? OPERATOR_STREAM);
    const seq = await tx.webhooks.nextSeq(operatorId, stream);
    const id = newId('evt', now);
    const body = JSON.stringify({ id, type, createdAt: formatTimestamp(now), machineNo, data });
    await tx.webhooks.insertEvent({ id, operator_id: operatorId, type, stream, seq, machine_no: machineNo, body, created_at: now });
    const deliveries = endpoints.map((endpointId) => ({ endpointId, id: newId('whd', now) }));
    await tx.webhooks.insertDeliveries(
      deliveries.map(({ endpointId, id: deliveryId }) => ({
        id: deliveryId,
        endpoint_id: endpointId,
        event_id: id,
        stream,
        seq,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_attempt_at: null,
        response_code: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })),
    );
    return { eventId: id, deliveryIds: deliveries.map((x) => x.id) };
  }
}
