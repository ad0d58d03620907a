import { request } from 'undici';

/** One answer of the control channel. */
export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The control channel could not be reached: the daemon is not running (or not on this port). */
export class ControlUnreachable extends Error {}

/**
 * The request reached the control channel but no (whole) answer came back: a timeout, or the
 * connection dropped mid-answer. The daemon is running (or was); what the request started — a
 * vend — may still be going on.
 */
export class ControlNoAnswer extends ControlUnreachable {}

/** Errors that prove the request never reached a listener. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The technician CLI's side of the control channel. */
export class ControlClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | null,
    private readonly timeoutMs = 60_000,
  ) {}

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ControlAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res;
    let text: string;
    try {
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
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { message: text };
    }
    return { status: res.statusCode, body: parsed };
  }
}
