import { z } from 'zod';
import { VMC_MAX_COLUMNS, VMC_MAX_ROWS } from './vmc/constants.ts';
import { lazySchema } from './lazy-schema.ts';
import { ControlServiceCheck, ControlStatus } from './control.ts';

/**
 * The kiosk's own screen (issue 32, docs/kiosk-screen.md): pay by phone. A shopper picks an item on
 * the cabinet's screen; the cabinet asks the cloud for a checkout (`POST /cabinet/checkouts`), shows its
 * `payUrl` as a QR, and follows it (`GET /cabinet/checkouts/{id}`). The cloud takes the payment through
 * its processor, records the order with its payment and enqueues the drop as a remote command whose
 * `externalRef` is the checkout id; the cabinet vends it as any other command. Nothing the screen does
 * dispenses: only a payment the cloud confirmed makes a command.
 *
 * States, in order: `awaiting_payment` → `paid` (order paid, command pending) → `vending` (the cabinet
 * took the command) → `vended` | `failed` (the drop failed or timed out: the order's refund is owed).
 * Ends without payment: `expired` (nobody paid before `expiresAt`), `cancelled` (the cabinet gave up).
 * A payment that arrives after the checkout ended is recorded and owed back (`refund: 'owed'`).
 */

export const CHECKOUT_STATUSES = ['awaiting_payment', 'paid', 'vending', 'vended', 'failed', 'expired', 'cancelled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
/** Statuses after which nothing changes (but a late payment's refund). */
export const CHECKOUT_FINAL: readonly CheckoutStatus[] = ['vended', 'failed', 'expired', 'cancelled'];
/** `owed`: money taken and not (yet) given back; `issued`: given back; null: nothing to give back. */
export const CHECKOUT_REFUNDS = ['owed', 'issued'] as const;
/** A refund as the processor left it (issue 34): `failed` is still owed to the shopper, the processor refused it. */
export const CHECKOUT_REFUND_STATES = ['owed', 'issued', 'failed'] as const;

/** The refund of a checkout through the processor it was paid with. Times are ISO 8601 UTC. */
export const CheckoutRefund = lazySchema(() =>
  z.object({
    status: z.enum(CHECKOUT_REFUND_STATES),
    amountCents: z.number().int(),
    /** The processor's refund (null until one was made). */
    refundId: z.string().nullable(),
    /** Why the processor refused it (null unless `failed`). */
    reason: z.string().nullable(),
    /** When it was issued, or last refused (null while owed and never tried). */
    at: z.string().nullable(),
    /** Refused attempts so far (each retry is a new request to the processor). */
    attempts: z.number().int(),
  }),
);
export type CheckoutRefund = z.infer<typeof CheckoutRefund>;

/** How long a checkout's QR stays payable (seconds), the cloud's default. */
export const CHECKOUT_TTL_SECONDS = 180;

/** `POST /cabinet/checkouts` body: the aisle the shopper chose (the price is the server's). */
export const CheckoutRequest = lazySchema(() =>
  z.strictObject({
    aisleNo: z
      .number()
      .int()
      .min(1)
      .max(VMC_MAX_ROWS * VMC_MAX_COLUMNS),
    equipmentNo: z.string().max(128).optional(),
  }),
);
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

/** A checkout as the cloud answers it (`data` of the gateway's checkout calls). Times are ISO 8601 UTC. */
export const CheckoutData = lazySchema(() =>
  z.object({
    checkoutId: z.string(),
    aisleNo: z.number().int(),
    /** The product's name on the planogram (null: none recorded). */
    name: z.string().nullable(),
    amountCents: z.number().int(),
    /** Decimal currency amount (amountCents / 100). */
    amount: z.number(),
    currency: z.string(),
    /** The page the shopper's phone opens (the QR's content): the cloud's checkout page for exactly this aisle and price. */
    payUrl: z.string(),
    status: z.enum(CHECKOUT_STATUSES),
    createdAt: z.string(),
    expiresAt: z.string(),
    /** Whole seconds until `expiresAt` when the answer was made (0 once passed). */
    secondsLeft: z.number().int(),
    paidAt: z.string().nullable(),
    orderNumber: z.string().nullable(),
    commandId: z.string().nullable(),
    /** `owed` until the money is back (a refused refund too); `refundState` says how the refund stands. */
    refund: z.enum(CHECKOUT_REFUNDS).nullable(),
    /** Why it failed, in words a shopper may read (null otherwise). */
    detail: z.string().nullable(),
    /** The refund through the processor (null: nothing owed). Absent from clouds before issue 34. */
    refundState: CheckoutRefund.nullable().optional(),
  }),
);
export type CheckoutData = z.infer<typeof CheckoutData>;

// --- the agent's kiosk routes (control channel, no token: Host and Origin checked) ------------------

/** One aisle as the storefront shows it. */
export const KIOSK_ITEM_STATES = ['available', 'sold_out', 'faulted', 'unpriced'] as const;
export const KioskItem = lazySchema(() =>
  z.object({
    aisleNo: z.number().int(),
    name: z.string(),
    priceCents: z.number().int(),
    stock: z.number().int(),
    state: z.enum(KIOSK_ITEM_STATES),
    /** Where the screen loads the product's picture from (null: none on the planogram). */
    imageUrl: z.string().nullable(),
  }),
);
export type KioskItem = z.infer<typeof KioskItem>;

/**
 * `GET /v1/kiosk/screen`: everything the screen shows besides the loop, polled every few seconds.
 * `payByPhone` is false (with `payByPhoneReason`) while the cloud is unreachable, the machine retired,
 * the board faulted or the cloud has no processor.
 */
export const KioskScreen = lazySchema(() =>
  z.object({
    machineCode: z.string(),
    /** The configuration block's flags the screen reads (htmlStorefront, walkupSensor, remoteScreen, …). */
    features: z.record(z.string(), z.boolean()),
    cloud: z.object({ reachable: z.boolean(), lastContactAt: z.string().nullable() }),
    board: z.object({ state: z.enum(['unknown', 'ok', 'fault', 'unavailable']), fault: z.string().nullable() }),
    retired: z.boolean(),
    /** The operator's currency (ISO 4217; null: unknown until the goods are fetched once). */
    currency: z.string().nullable(),
    items: z.array(KioskItem),
    /** When the goods were last fetched from the cloud, and whether that copy is old. */
    goodsFetchedAt: z.string().nullable(),
    goodsStale: z.boolean(),
    payByPhone: z.boolean(),
    payByPhoneReason: z.string().nullable(),
    /** A purchase is under way on this cabinet (the screen shows itself busy to anyone else). */
    busy: z.boolean(),
  }),
);
export type KioskScreen = z.infer<typeof KioskScreen>;

/** `POST /v1/kiosk/checkouts` body. */
export const KioskCheckoutRequest = lazySchema(() =>
  z.strictObject({
    aisleNo: z
      .number()
      .int()
      .min(1)
      .max(VMC_MAX_ROWS * VMC_MAX_COLUMNS),
  }),
);
export type KioskCheckoutRequest = z.infer<typeof KioskCheckoutRequest>;

/** The purchase under way as the screen follows it: the cloud's checkout, with what the board did meanwhile. */
export const KioskCheckout = lazySchema(() =>
  CheckoutData.extend({
    /** The agent's own view of the drop (null until it takes the command): a fresher `vending`/`vended`/`failed` than the cloud's. */
    local: z.enum(['vending', 'vended', 'failed']).nullable(),
    /** The cloud did not answer the last refresh: the status may be behind. */
    stale: z.boolean(),
  }),
);
export type KioskCheckout = z.infer<typeof KioskCheckout>;

/** `POST /v1/kiosk/service` body: the service code typed on the screen's keypad. */
export const KioskServiceRequest = lazySchema(() => z.strictObject({ code: z.string().max(32) }));
export type KioskServiceRequest = z.infer<typeof KioskServiceRequest>;

/**
 * `POST /v1/kiosk/service` answer: the gate's verdict (the agent's lockout applies: 5 wrong codes lock it
 * for 300 s) and, only when the code was right, the cabinet's status for the technician.
 */
export const KioskServiceAnswer = lazySchema(() =>
  z.object({
    check: ControlServiceCheck,
    /** What a technician at the screen needs (the CLI's `status` has the rest). */
    status: ControlStatus.pick({ agent: true, enrolment: true, cloud: true, board: true, spool: true, lastErrors: true }).nullable(),
  }),
);
export type KioskServiceAnswer = z.infer<typeof KioskServiceAnswer>;
