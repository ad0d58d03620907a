import { z } from 'zod';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import type { PaymentEvent } from './processor.ts';

/** A place's own application of a verified event (its `receivePayment`): once per event id, in its own transaction. */
export type PaymentEventOwner = (event: PaymentEvent, payload: string) => Promise<object>;

export interface PaymentEventRouterDeps {
  store: AppStore;
  audit: AuditLog;
  /** Each place that takes money, by its webhook path: the composition root fills it (ad payments, the DFY pool, kiosk checkouts). */
  owners: ReadonlyMap<string, PaymentEventOwner>;
}

/** What a webhook answers for an event that is another place's (or nobody's): who applied it, and what it said. */
export const RoutedPaymentEvent = z.object({
  eventId: z.string(),
  type: z.string(),
  routedTo: z
    .string()
    .nullable()
    .describe(
      'the webhook path of the place that applied the event (its metadata.webhookPath); null: no place of this service has that path — acknowledged, recorded in the audit log, nothing changed',
    ),
  result: z.record(z.string(), z.unknown()).nullable().describe("that place's own answer, as its webhook would give it (null: none applied it)"),
});
export type RoutedPaymentEvent = z.infer<typeof RoutedPaymentEvent>;

/**
 * Routes a verified payment event to the place that applies it (issue 34). Stripe delivers every event of an account
 * to the one endpoint registered in its dashboard, whatever path the intent named; the intent's `webhookPath`
 * (Stripe: its metadata) says whose it is. Whichever payment webhook received it verifies it once, then applies
 * it itself when it is its own, or hands it here. An event naming a path no place has is acknowledged (200, so the
 * processor stops retrying), written to the audit log, and changes nothing. docs/decisions/marketplace.md
 * ("Stripe (issue 34)", "Routing").
 */
export class PaymentEventRouter {
  constructor(private readonly deps: PaymentEventRouterDeps) {}

  /** The path whose place applies `event`, delivered to the webhook at `receivedAt`. */
  ownerPath(event: PaymentEvent, receivedAt: string): string {
    return event.webhookPath ?? receivedAt;
  }

  /** Applies another place's event through its owner; an event naming no known place is recorded and changes nothing. */
  async deliver(event: PaymentEvent, payload: string, receivedAt: string): Promise<RoutedPaymentEvent> {
    const path = this.ownerPath(event, receivedAt);
    const owner = this.deps.owners.get(path);
    if (!owner) {
      const resource = `event:${event.id} webhookPath:${JSON.stringify(path.slice(0, 200))} received at:${receivedAt}`;
      await this.deps.audit.record(this.deps.store.repos, null, 'payments.event_unrouted', resource);
      return { eventId: event.id, type: event.type, routedTo: null, result: null };
    }
    const result = (await owner(event, payload)) as Record<string, unknown>;
    return { eventId: event.id, type: event.type, routedTo: path, result };
  }
}
