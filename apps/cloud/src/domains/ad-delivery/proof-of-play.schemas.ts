import { z } from 'zod';
import { AD_SOURCES } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';

export const ProofOfPlayQuery = PagingQuery.extend({
  machineNo: z.string().min(1).max(64).optional(),
  campaignId: z.string().min(1).max(64).optional(),
  source: z.enum(AD_SOURCES).optional(),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp with an offset' }).optional(),
});
export type ProofOfPlayQuery = z.infer<typeof ProofOfPlayQuery>;

export const PlayRow = z.object({
  id: z.string(),
  machineNo: z.string(),
  entryId: z.string(),
  campaignId: z.string().nullable(),
  source: z.enum(AD_SOURCES),
  leaseId: z.string().nullable(),
  playedAt: z.string(),
  durationMs: z.number().int().nullable(),
  receivedAt: z.string(),
});
export const PlayPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(PlayRow) });
export type PlayPage = z.infer<typeof PlayPage>;
