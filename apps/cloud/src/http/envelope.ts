import type { Response } from 'express';
import { ensureExpress } from './lean-dispatch.ts';

export interface Envelope<T> {
  code: number;
  message: string;
  data: T | null;
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 200, message: 'success', data };
}

/**
 * Writes a success envelope; the body is serialised once, without ETag work. The common case (a GET or
 * POST without conditional headers, a status with a body) is written straight to the response with the
 * headers Express's `send` would set, skipping its content-type, charset and freshness work (a measurable
 * share of the cabinets' hot legs); anything else goes through `send` itself.
 */
export function sendOk<T>(res: Response, data: T, status = 200): void {
  const body = JSON.stringify(ok(data));
  const h = res.req.headers;
  const plain =
    status >= 200 &&
    status < 300 &&
    status !== 204 &&
    status !== 205 &&
    res.req.method !== 'HEAD' &&
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined &&
    !res.hasHeader('transfer-encoding') &&
    !res.hasHeader('etag');
  if (!plain) {
    ensureExpress(res);
    res.status(status).type('application/json').send(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}

/** Errors keep the exact envelope shape: the specifics go into `message`, `data` is null. */
export function sendError(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  ensureExpress(res);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const body: Envelope<null> = { code: status, message, data: null };
  res.status(status).type('application/json').send(JSON.stringify(body));
}
