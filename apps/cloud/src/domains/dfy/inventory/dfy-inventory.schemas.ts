import { z } from 'zod';
import { TIMESTAMP, confirm } from '../deals/dfy.schemas.ts';

export const OrderParams = z.object({ id: z.string().min(1).max(64) });
export const SuggestionsQuery = z.object({ machineNo: z.string().min(1).max(64) });
export const ApproveBody = z.strictObject({ confirm });
export const ReceiveBody = z.strictObject({
  unitCostsUsd: z
    .record(z.string().min(1).max(64), z.number().min(0).max(100_000))
    .optional()
    .describe('actual unit cost per SKU; a SKU left out keeps its estimate (55% of retail) and the order stays flagged as an estimate'),
});

const Line = z.object({
  aisleNo: z.number().int(),
  sku: z.string(),
  productName: z.string().nullable(),
  quantity: z.number().int(),
  retailUsd: z.number(),
  estUnitCostUsd: z.number().describe('55% of retail'),
});
export const SupplierOrder = z.object({
  id: z.string(),
  dealId: z.string(),
  machineNo: z.string().nullable(),
  status: z.enum(['queued', 'pending_approval', 'received', 'cancelled']),
  lines: z.array(Line),
  estimatedCostUsd: z.number(),
  actualCostUsd: z.number().nullable(),
  costIsEstimate: z.boolean(),
  workOrderId: z.string(),
  purchaseOrderId: z.string().nullable(),
  createdAt: z.string().describe(TIMESTAMP),
});
export const InventoryTick = z.object({
  examined: z.number().int(),
  ordered: z.array(SupplierOrder),
  skipped: z.array(z.object({ machineNo: z.string().nullable(), reason: z.string() })),
});
export const Suggestions = z.object({
  machineNo: z.string(),
  lines: z.array(Line),
  estimatedCostUsd: z.number(),
  costIsEstimate: z.literal(true),
  spentThisMonthUsd: z.number(),
  monthlyCapUsd: z.number(),
  wouldNeedApproval: z.boolean(),
  automated: z.boolean().describe('the tick would order for this machine: autoInventory on and the inventory capability on'),
  openOrderId: z.string().nullable(),
});
