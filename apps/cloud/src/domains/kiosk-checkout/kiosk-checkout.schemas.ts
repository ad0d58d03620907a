import { z } from 'zod';
import { CHECKOUT_REFUNDS, CHECKOUT_STATUSES, SerialCarrier } from '@vend/protocol';

/** `/cabinet/checkouts/{checkoutId}`: any text names a checkout or none (an unknown one is 404, never 400). */
export const CheckoutParams = z.object({ checkoutId: z.string().min(1).max(128) });

/** `GET /cabinet/checkouts/{checkoutId}`: the serial may ride along as a cross-check, as on every leg. */
export const CheckoutQuery = SerialCarrier.pick({ equipmentNo: true });

/** `POST /cabinet/checkouts/{checkoutId}/cancel`: nothing but the optional serial cross-check. */
export const CancelBody = z.strictObject({ equipmentNo: z.string().max(128).optional() });

/** The processor webhook's answer: what the event did to its checkout. */
export const KioskWebhookResult = z.object({
  eventId: z.string(),
  type: z.string(),
  /** This event id was applied before (or the checkout was already paid by another event of its intent): nothing changed. */
  duplicate: z.boolean(),
  checkoutId: z.string(),
  status: z.enum(CHECKOUT_STATUSES).nullable().describe('the checkout’s status after the event (null: no such checkout)'),
  refund: z.enum(CHECKOUT_REFUNDS).nullable().describe('owed: the payment came after the checkout ended and is owed back'),
  orderNumber: z.string().nullable(),
  commandId: z.string().nullable(),
});
export type KioskWebhookResult = z.infer<typeof KioskWebhookResult>;
