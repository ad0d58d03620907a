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
export const HealthData = z.object({ db: z.enum(['ok', 'error']), redis: z.enum(['ok', 'error', 'disabled']) });
