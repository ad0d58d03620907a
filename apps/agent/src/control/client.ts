import type { z } from 'zod';
import { ControlError } from '@vend/protocol';

/** One answer of the control channel: a 200 parsed with the route's schema, or a refusal `{error, message}`. */
export type ControlAnswer<T> = { ok: true; status: 200; body: T } | { ok: false; status: number; body: ControlError };

/** The control channel could not be reached: the daemon is not running (or not on this port). */
export class ControlUnreachable extends Error {}

/**
 * The request reached the control channel but no (whole) answer came back: a timeout, or the
 * connection dropped mid-answer. The daemon is running (or was); what the request started — a
 * vend — may still be going on.
 */
export class ControlNoAnswer extends ControlUnreachable {}

/**
 * The daemon answered 200 with something that does not fit the route's schema (@vend/protocol's
 * control.ts): a daemon of another version, or a bug. Never guessed at.
 */
export class ControlBadAnswer extends Error {}

/** Errors that prove the request never reached a listener. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The technician CLI's side of the control channel. */
export class ControlClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | null,
    private readonly timeoutMs = 60_000,
  ) {}

  /** One request; a 200's body is parsed with `schema` (ControlBadAnswer when it does not fit). */
  async call<S extends z.ZodType>(method: 'GET' | 'POST', path: string, schema: S, body?: unknown): Promise<ControlAnswer<z.output<S>>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res;
    let text: string;
    try {
      // loaded at the first call: the daemon imports this module but never calls its own control channel
      const { request } = await import('undici');
      res = await request(this.baseUrl + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      text = await res.body.text();
    } catch (e) {
      const err = e as { code?: string; cause?: { code?: string }; message?: string };
      const code = err.code ?? err.cause?.code ?? '';
      if (NOT_SENT.has(code)) throw new ControlUnreachable(`the agent's control channel at ${this.baseUrl} does not answer (${err.message ?? code})`);
      const why =
        code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
          ? `no answer within ${Math.round(this.timeoutMs / 1000)} s`
          : `the connection ended without an answer: ${err.message ?? code}`;
      throw new ControlNoAnswer(`the agent's control channel at ${this.baseUrl} took the request but gave no answer (${why})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
    if (res.statusCode === 200) {
      const answer = schema.safeParse(json);
      if (answer.success) return { ok: true, status: 200, body: answer.data };
      const issues =
        json === undefined
          ? 'not JSON'
          : answer.error.issues
              .slice(0, 5)
              .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
              .join('; ');
      throw new ControlBadAnswer(
        `the agent's control channel at ${this.baseUrl} answered ${method} ${path} with something this vend-agent does not understand (${issues}): is the daemon another version?`,
      );
    }
    const refusal = ControlError.safeParse(json);
    return { ok: false, status: res.statusCode, body: refusal.success ? refusal.data : { error: '', message: text } };
  }
}
