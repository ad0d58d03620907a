import { z } from 'zod';
import { safeString, VMC_MAX_COLUMNS, VMC_MAX_ROWS } from '@vend/protocol';
import { decimalAmount } from '../../http/money.ts';
import { PagingQuery } from '../../http/paging.ts';

/** The largest aisle number any cabinet can have: the VMC board's row × column limit (1024). */
export const MAX_AISLE_NO = VMC_MAX_ROWS * VMC_MAX_COLUMNS;
/** Upper bound of stock counts and thresholds: far above any spiral, far below the column type. */
export const MAX_STOCK = 9999;
/** Upper bound of an aisle's selling price, in currency units. */
export const MAX_PRICE = 100_000;

const stockCount = z.number().int('must be a whole number').min(0, 'must not be negative').max(MAX_STOCK, `must be at most ${MAX_STOCK}`);
const aisleNumber = z.number().int('must be a whole number').min(1, 'must be 1 or more').max(MAX_AISLE_NO, `must be at most ${MAX_AISLE_NO}`);

export const MachineParams = z.object({ machineNo: z.string().min(1) });

export const AisleParams = z.object({
  machineNo: z.string().min(1),
  aisleNo: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').max(MAX_AISLE_NO, `must be at most ${MAX_AISLE_NO}`),
});

/** Restock body: omitted (or `{}`) restocks every aisle; `aisles` lists the ones to fill. */
export const RestockBody = z.strictObject({
  aisles: z.array(aisleNumber).min(1, 'list at least one aisle, or omit `aisles` to restock all').max(MAX_AISLE_NO).optional(),
});
export type RestockInput = z.output<typeof RestockBody>;

/** Longest product picture address an aisle takes. */
export const MAX_IMAGE_URL = 500;

/** A stand-in origin: a path on this service resolves against it and must stay on it. */
const SAME_ORIGIN = 'https://this-service.invalid';

/**
 * Whether `v` is a picture address a storefront may load: an https URL naming a host and no credentials, or an
 * absolute path on this service (`/media/<hash>.png`) — never `//host/…` or `/\host/…`, which a browser reads
 * as another site. Whitespace and backslashes are refused outright.
 */
export function isImageUrl(v: string): boolean {
  if (/[\s\\]/.test(v)) return false;
  if (v.startsWith('/')) return !v.startsWith('//') && URL.canParse(v, SAME_ORIGIN) && new URL(v, SAME_ORIGIN).origin === SAME_ORIGIN;
  if (!/^https:\/\//i.test(v) || !URL.canParse(v)) return false;
  const u = new URL(v);
  return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === '';
}

/** An aisle's product picture: an https URL or a path on this service, at most 500 characters. */
const imageUrl = safeString({ trim: true })
  .min(1, 'must not be empty (send null to remove the picture)')
  .max(MAX_IMAGE_URL, `must be at most ${MAX_IMAGE_URL} characters`)
  .refine(isImageUrl, 'must be an https URL (https://…) or a path on this service starting with /');

/** Partial aisle update: only sent fields change; unknown fields are refused so a typo never passes as a no-op. */
export const AislePatchBody = z
  .strictObject({
    currentStock: stockCount.optional(),
    maxStock: stockCount.optional(),
    alertThreshold: stockCount.optional(),
    sellingPrice: decimalAmount(MAX_PRICE).optional(),
    faulted: z.boolean().optional(),
    imageUrl: imageUrl.nullable().optional().describe('the product picture shown by the kiosk storefront; null removes it'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'send at least one of currentStock, maxStock, alertThreshold, sellingPrice, faulted, imageUrl');
export type AislePatch = z.output<typeof AislePatchBody>;

/** No C0 control character and no DEL: a regular expression, so that the document states it as a pattern. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const NO_C0_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;

export const LotsQuery = PagingQuery.extend({
  sku: z.string().min(1).max(64).regex(NO_C0_CONTROLS, 'must not contain control characters').optional(),
});

export const Aisle = z.object({
  aisleNo: z.number().int(),
  currentStock: z.number().int(),
  maxStock: z.number().int(),
  alertThreshold: z.number().int(),
  sellingPrice: z.number().describe('decimal currency amount'),
  faulted: z.boolean(),
  low: z.boolean().describe('currentStock <= alertThreshold'),
  sku: z.string().nullable(),
  productName: z.string().nullable(),
  imageUrl: z.string().nullable().describe('the product picture: an https URL or a path on this service; null: none'),
});
export type Aisle = z.infer<typeof Aisle>;

export const MachineInventory = z.object({ machineNo: z.string(), name: z.string(), aisles: z.array(Aisle) });
export type MachineInventory = z.infer<typeof MachineInventory>;

export const RestockResult = MachineInventory.extend({ restocked: z.array(z.number().int()) });
export const UpdatedAisle = Aisle.extend({ machineNo: z.string() });

export const Lot = z.object({
  id: z.string(),
  sku: z.string(),
  qtyReceived: z.number().int(),
  qtyRemaining: z.number().int(),
  unitCost: z.number().describe('decimal currency amount'),
  unitCostCents: z.number().int(),
  receivedAt: z.string(),
  purchaseOrderRef: z.string().nullable(),
});
export type Lot = z.infer<typeof Lot>;
export const LotsPage = z.object({ page: z.number(), size: z.number(), total: z.number(), records: z.array(Lot) });

/** Upper bound of a purchase-order line's unit cost, in currency units. */
export const MAX_UNIT_COST = 10_000;
/** Upper bound of a purchase-order line's quantity. */
export const MAX_LINE_QTY = 1_000_000;
/** Most lines one purchase order may carry. */
export const MAX_PO_LINES = 200;

const printable = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).regex(NO_C0_CONTROLS, 'must not contain control characters');

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'must be a real calendar date')
  .meta({ format: 'date' });

/**
 * A purchase order as received (spec 1 §2.9, §4.8): each line becomes one FIFO cost layer.
 * `unitCostUsd` is a decimal with at most two decimals (whole cents, docs/decisions/finance.md "FIFO cost").
 */
export const PurchaseBody = z.strictObject({
  vendor: printable(200),
  poRef: printable(64),
  orderedOn: calendarDate,
  lines: z
    .array(
      z.strictObject({
        sku: printable(64),
        qty: z.number().int('must be a whole number').min(1, 'must be 1 or more').max(MAX_LINE_QTY, `must be at most ${MAX_LINE_QTY}`),
        unitCostUsd: decimalAmount(MAX_UNIT_COST),
      }),
    )
    .min(1, 'list at least one line')
    .max(MAX_PO_LINES, `at most ${MAX_PO_LINES} lines`),
});
export type PurchaseInput = z.output<typeof PurchaseBody>;

export const PurchaseOrder = z.object({
  id: z.string(),
  vendor: z.string(),
  poRef: z.string(),
  orderedOn: z.string().describe('YYYY-MM-DD'),
  receivedAt: z.string(),
  total: z.number().describe('decimal currency amount: Σ qty × unitCost'),
  totalCents: z.number().int(),
  lots: z.array(Lot).describe('the cost layers the lines created, in line order'),
});
export type PurchaseOrder = z.infer<typeof PurchaseOrder>;
export const PurchasesPage = z.object({ page: z.number(), size: z.number(), total: z.number(), records: z.array(PurchaseOrder) });
