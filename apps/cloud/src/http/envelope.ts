import type { Response } from 'express';

export interface Envelope<T> {
  code: number;
  message: string;
  data: T | null;
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 200, message: 'success', data };
}

/** Writes a success envelope; the body is serialised once, without ETag work. */
export function sendOk<T>(res: Response, data: T, status = 200): void {
  res
    .status(status)
    .type('application/json')
    .send(JSON.stringify(ok(data)));
}

/** Errors keep the exact envelope shape: the specifics go into `message`, `data` is null. */
export function sendError(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const body: Envelope<null> = { code: status, message, data: null };
  res.status(status).type('application/json').send(JSON.stringify(body));
}
