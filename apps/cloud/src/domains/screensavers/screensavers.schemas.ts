import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { CreativeSummary } from '../campaigns/campaigns.schemas.ts';
import { MachineNo } from '../machines/machines.schemas.ts';

export const SCREENSAVER_STATUSES = ['pending', 'approved', 'retired'] as const;

export const CreateScreensaverBody = z.strictObject({
  name: safeString({ trim: true }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  contentType: z.string().min(1).max(100),
  dataBase64: z.string().min(1),
  /** The machines it runs on; absent = every machine of the operator. */
  machineNos: z.array(MachineNo).min(1).max(500).optional(),
});
export type CreateScreensaverBody = z.infer<typeof CreateScreensaverBody>;

export const ScreensaverParams = z.object({ id: z.string().min(1).max(64) });
export const ScreensaverListQuery = PagingQuery.extend({ status: z.enum(SCREENSAVER_STATUSES).optional() });
export type ScreensaverListQuery = z.infer<typeof ScreensaverListQuery>;

export const Screensaver = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(SCREENSAVER_STATUSES),
  machineNos: z.array(z.string()).nullable(),
  creative: CreativeSummary,
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  operatorEmail: z.string().optional(),
});
export type Screensaver = z.infer<typeof Screensaver>;
export const ScreensaverPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Screensaver) });
