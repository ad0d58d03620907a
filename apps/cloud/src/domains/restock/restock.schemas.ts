import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { MAX_AISLE_NO, MAX_STOCK } from '../inventory/inventory.schemas.ts';
import { RUN_STATUSES, duplicateAisles } from './restock.rules.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
const id = safeString().min(1).max(64);
const machineNo = safeString().min(1, 'must not be empty').max(64, 'must be at most 64 characters');
const status = z.enum(RUN_STATUSES);

export const PlanBody = z.strictObject({
  machineNo,
  /** The crew the run is for; absent: the caller's oldest crew whose fleet holds the machine. */
  crewId: id.optional(),
  notes: safeString({ trim: true, allowBreaks: true }).max(255, 'must be at most 255 characters').optional(),
});
export type PlanBody = z.infer<typeof PlanBody>;

export const RunParams = z.object({ runId: id });

export const RunListQuery = PagingQuery.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  status: status.optional(),
  machineNo: machineNo.optional(),
  crewId: id.optional(),
});
export type RunListQuery = z.output<typeof RunListQuery>;

const FilledAisle = z.strictObject({
  aisleNo: z.number().int('must be a whole number').min(1, 'must be 1 or more').max(MAX_AISLE_NO, `must be at most ${MAX_AISLE_NO}`),
  filled: z.number().int('must be a whole number').min(0, 'must not be negative').max(MAX_STOCK, `must be at most ${MAX_STOCK}`),
});

export const CompleteBody = z.strictObject({
  /** What went into each aisle; an aisle not listed kept its stock (filled 0). */
  aisles: z
    .array(FilledAisle)
    .max(MAX_AISLE_NO)
    .superRefine((list, ctx) => {
      const dup = duplicateAisles(list.map((a) => a.aisleNo));
      if (dup.length) ctx.addIssue({ code: 'custom', message: `aisle ${dup.join(', ')} listed more than once` });
    }),
});
export type CompleteBody = z.infer<typeof CompleteBody>;

export const CancelBody = z.strictObject({
  reason: safeString({ trim: true, allowBreaks: true }).max(255, 'must be at most 255 characters').optional(),
});
export type CancelBody = z.infer<typeof CancelBody>;

export const RunLine = z.object({
  aisleNo: z.number().int(),
  sku: z.string().nullable(),
  productName: z.string().nullable(),
  stockAtPlan: z.number().int().describe('currentStock when the run was planned'),
  par: z.number().int().describe("the aisle's maxStock when the run was planned"),
  pick: z.number().int().describe('max(0, par − stockAtPlan); 0 for a faulted aisle'),
  faulted: z.boolean(),
  filled: z.number().int().nullable().describe('units put in on completion (0 for an aisle not listed); null until done'),
  stockAfter: z.number().int().nullable().describe("the aisle's stock after completion (clamped at maxStock); null until done"),
});

export const RunTotal = z.object({
  sku: z.string().nullable().describe('null for an aisle without a SKU (its own group)'),
  productName: z.string().describe('the product, or "aisle N" for an aisle without a SKU'),
  pick: z.number().int(),
});

export const RestockRun = z.object({
  id: z.string(),
  crewId: z.string(),
  machineNo: z.string(),
  status,
  notes: z.string().nullable(),
  createdBy: z.string().describe('email of the person who planned it'),
  createdAt: z.string().describe(TIMESTAMP),
  startedBy: z.string().nullable(),
  startedAt: z.string().nullable().describe(TIMESTAMP),
  completedBy: z.string().nullable(),
  completedAt: z.string().nullable().describe(TIMESTAMP),
  cancelledBy: z.string().nullable(),
  cancelledAt: z.string().nullable().describe(TIMESTAMP),
  cancelReason: z.string().nullable(),
  lines: z.array(RunLine).describe('the pick list, one line per aisle'),
  totals: z.array(RunTotal).describe('how many of what to bring: picks summed by SKU'),
});
export type RestockRun = z.infer<typeof RestockRun>;

export const RestockRunPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(RestockRun) });

export const PickListQuery = z.object({
  /** One machine of the caller's fleet; absent: every machine the caller sees. */
  machineNo: machineNo.optional(),
});
export type PickListQuery = z.output<typeof PickListQuery>;

export const FleetPickList = z.object({
  machines: z.number().int().describe('how many machines the list covers'),
  units: z.number().int().describe('every unit to bring, all products'),
  products: z
    .array(
      z.object({
        sku: z.string(),
        productName: z.string().describe("the product's name in its first aisle, else the SKU"),
        units: z.number().int().describe('units to bring: the picks of its aisles summed over the machines'),
        machines: z.array(
          z.object({
            machineNo: z.string(),
            name: z.string(),
            units: z.number().int(),
            aisles: z.array(z.object({ aisleNo: z.number().int(), units: z.number().int().describe('max(0, maxStock − currentStock)') })),
          }),
        ),
      }),
    )
    .describe('products to load, most units first; aisles without a SKU and lines picking nothing are left out'),
  faulted: z
    .array(z.object({ machineNo: z.string(), aisleNo: z.number().int(), sku: z.string().nullable(), productName: z.string().nullable() }))
    .describe('aisles with a product that are faulted: nothing is loaded for them until repaired'),
});
export type FleetPickList = z.infer<typeof FleetPickList>;
