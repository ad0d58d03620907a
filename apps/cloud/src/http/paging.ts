import { z } from 'zod';

/** `page` 1-based default 1; `size` default 20, max 100 (spec 1 §8). */
export const PagingQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export type Paging = z.infer<typeof PagingQuery>;

export interface Page<T> {
  page: number;
  size: number;
  total: number;
  records: T[];
}

export function offsetOf(p: Paging): number {
  return (p.page - 1) * p.size;
}
