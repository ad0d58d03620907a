import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { WireGetAdRequest, WireGetAdResponse } from './vistar-wire.ts';

/**
 * The mock SSP's routes imitate an outside SSP: success bodies are the SSP's own JSON (Vistar-style,
 * snake_case, no `{code, message, data}` envelope, so `HttpSupply` reads the mock exactly as it reads
 * a real SSP); errors are this service's usual error envelope (an SSP client reads only the status).
 */

/** POST /ssp/mock/get_ad/json */
export const GetAdBody = WireGetAdRequest;
export const GetAdAnswer = WireGetAdResponse;

export const PopParams = z.object({ leaseId: safeString().max(200) });
/** Vistar's PoP carries when the ad was shown (unix seconds); the mock records when the PoP arrived instead. */
export const PopQuery = z.object({
  display_time: z.coerce.number().int().min(0).max(99_999_999_999).optional(),
});

/** One popped lease: who played it, when the PoP arrived, what it pays. */
export const Receipt = z.object({
  lease_id: z.string(),
  device_id: z.string(),
  venue_id: z.string().nullable(),
  asset_url: z.string(),
  /** Net CPM in the currency unit (12.0 for the mock). */
  net_cpm: z.number(),
  /** Timestamps in this service's form `YYYY-MM-DDTHH:MM:SS.mmm+0000`. */
  issued_at: z.string(),
  expires_at: z.string(),
  popped_at: z.string(),
});
export type Receipt = z.infer<typeof Receipt>;

export const ReceiptsQuery = PagingQuery.extend({
  device_id: safeString().min(1).max(128).optional(),
});
export type ReceiptsQuery = z.infer<typeof ReceiptsQuery>;

export const ReceiptsPage = z.object({
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  receipts: z.array(Receipt),
});
export type ReceiptsPage = z.infer<typeof ReceiptsPage>;

/** GET /ssp/mock/creative/{file}: `1.png` … `3.png`. */
export const CreativeParams = z.object({ file: z.string().max(32) });
