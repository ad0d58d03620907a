import { Agent, request } from 'undici';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole call, headers and body, must finish within this. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: string;
}

/** Why a call produced no HTTP response. */
export class HttpTransportError extends Error {
  constructor(
    readonly kind: 'timeout' | 'network' | 'aborted',
    message: string,
    /** True when the request provably never reached the server (connection refused, DNS): safe to retry anything. */
    readonly notSent: boolean,
  ) {
    super(message);
    this.name = 'HttpTransportError';
  }
}

/** The cloud client's only view of HTTP, so unit tests answer calls without a network. */
export type HttpTransport = (req: HttpRequest) => Promise<HttpResponse>;

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const MAX_BODY = 1024 * 1024;

/** HTTP over undici: one keep-alive pool, a hard deadline per call, bodies capped at 1 MiB. */
export function undiciTransport(): { transport: HttpTransport; close(): Promise<void> } {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 4 });
  const transport: HttpTransport = async (req) => {
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        signal,
        dispatcher,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY) {
          res.body.destroy();
          throw new HttpTransportError('network', `response body over ${MAX_BODY} bytes`, false);
        }
        chunks.push(chunk);
      }
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v[v.length - 1] : v;
      return { status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') };
    } catch (e) {
      if (e instanceof HttpTransportError) throw e;
      if (req.signal?.aborted) throw new HttpTransportError('aborted', 'aborted', false);
      if (deadline.aborted) throw new HttpTransportError('timeout', `no answer within ${req.timeoutMs} ms`, false);
      const err = e as { code?: string; cause?: { code?: string }; message?: string };
      const code = err.code ?? err.cause?.code ?? '';
      const name = (e as Error).name;
      if (name === 'HeadersTimeoutError' || name === 'BodyTimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
        throw new HttpTransportError('timeout', `no answer within ${req.timeoutMs} ms`, false);
      throw new HttpTransportError('network', `${code || name}: ${err.message ?? String(e)}`, NOT_SENT_CODES.has(code));
    }
  };
  return { transport, close: () => dispatcher.close() };
}
