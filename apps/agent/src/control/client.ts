import { request } from 'undici';

/** One answer of the control channel. */
export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The control channel could not be reached: the daemon is not running (or not on this port). */
export class ControlUnreachable extends Error {}

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
    try {
      res = await request(this.baseUrl + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (e) {
      throw new ControlUnreachable(`the agent's control channel at ${this.baseUrl} does not answer (${(e as Error).message})`);
    }
    const text = await res.body.text();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { message: text };
    }
    return { status: res.statusCode, body: parsed };
  }
}
