import type { Request } from 'express';

/** Who is buying: no account, so the address their requests come from (what the hourly budgets count). */
export interface Buyer {
  ip: string;
}

/** The buyer of a request: the JSON routes and the buyer pages alike. */
export function buyerOf(req: Request): Buyer {
  return { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}
