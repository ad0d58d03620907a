import { z } from 'zod';
import { PagingQuery } from '../../http/paging.ts';

export const ReadinessQuery = z.object({ format: z.enum(['json', 'html']).optional() });
export const ResetQuery = z.object({
  wipeMoney: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});
export const AuditQuery = PagingQuery;
export const AuditData = z
  .array(
    z.object({
      keyId: z.string().nullable().describe('The credential: API key id, OAuth client id, session id or JWT subject'),
      userId: z.string().nullable().describe('The operator'),
      action: z.string(),
      resource: z.string(),
      timestamp: z.string().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000'),
    }),
  )
  .describe('Newest first; the total number of records is in the X-Total-Count header');
export const HealthData = z.object({ db: z.enum(['ok', 'error']), redis: z.enum(['ok', 'error', 'disabled']) });
export const ReadyData = z.object({
  status: z.enum(['ready', 'draining', 'unavailable']).describe('draining: shutdown has begun, send no new work here'),
  db: z.enum(['ok', 'error', 'unchecked']),
});
