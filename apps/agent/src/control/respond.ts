import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { ControlError } from '@vend/protocol';

/** How the control channel answers: every body built to its @vend/protocol schema, every refusal `{error, message}`. */

/** Sends an answer built to its schema (200 unless said); one that does not fit is a bug, thrown (a 500, logged) rather than sent. */
export function answer<S extends z.ZodType>(res: ServerResponse, schema: S, body: z.input<S>, status = 200): void {
  const checked = schema.safeParse(body);
  if (!checked.success) throw new Error(`answer does not fit its schema: ${z.prettifyError(checked.error).replaceAll('\n', '; ')}`);
  send(res, status, checked.data);
}

/** Sends a refusal: `{error, message}` (ControlError). */
export function refuse(res: ServerResponse, status: number, error: string, message: string): void {
  send(res, status, ControlError.parse({ error, message }));
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body) + '\n';
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request body as JSON (an empty body is `{}`): BodyError 413 past `max` bytes, 400 when not JSON. */
export async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new BodyError(413, `body over ${max} bytes`);
    parts.push(chunk);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new BodyError(400, `body must be JSON: ${(e as Error).message}`);
  }
}

/** The request body read as JSON and parsed to its schema; null once the refusal is sent (400 not JSON or not the schema, 413 too big). */
export async function readBody<S extends z.ZodType>(req: IncomingMessage, res: ServerResponse, schema: S, max: number): Promise<z.output<S> | null> {
  try {
    const parsed = schema.safeParse(await readJson(req, max));
    if (parsed.success) return parsed.data;
    refuse(res, 400, 'bad-request', issuesOf(parsed.error));
  } catch (e) {
    if (!(e instanceof BodyError)) throw e;
    refuse(res, e.status, 'bad-request', e.message);
  }
  return null;
}

/** A schema's issues as one line: `plays.0.id: Too small; …`. */
export function issuesOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}
