import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type https from 'node:https';

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

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const MAX_BODY = 1024 * 1024;

/**
 * HTTP over Node's own http/https: one keep-alive pool (4 sockets per origin), a hard deadline per call, bodies capped at 1 MiB. Not undici: this is the one HTTP client the
 * daemon holds at idle (the long poll runs through it), and node:http parses with the runtime's
 * native llhttp where undici loads its WebAssembly build and ≈ 1 MB of JavaScript — about 5 MB of the
 * daemon's resident memory (docs/decisions/agent.md "Footprint"). undici stays for the one-off
 * transfers (release artifacts, ad media, the CLI's control calls), loaded when one starts.
 */
export function cloudTransport(): { transport: HttpTransport; close(): Promise<void> } {
  const pool = { keepAlive: true, maxSockets: 4 };
  const plain = new http.Agent(pool);
  let secure: Promise<https.Agent> | null = null;
  const transport: HttpTransport = async (req) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new HttpTransportError('network', `invalid URL ${req.url}`, true);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpTransportError('network', `unsupported protocol ${url.protocol}`, true);
    const lib = url.protocol === 'https:' ? await httpsModule() : http;
    const agent = url.protocol === 'https:' ? await (secure ??= securePool(pool)) : plain;
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      let sent = false;
      const fail = (e: HttpTransportError): void => {
        if (settled) return;
        settled = true;
        cleanup();
        out.destroy();
        reject(e);
      };
      const onAbort = (): void => fail(new HttpTransportError('aborted', 'aborted', false));
      // the whole call, headers and body, within timeoutMs
      const timer = setTimeout(() => fail(new HttpTransportError('timeout', `no answer within ${req.timeoutMs} ms`, false)), req.timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      };
      if (req.signal?.aborted) {
        clearTimeout(timer);
        reject(new HttpTransportError('aborted', 'aborted', false));
        return;
      }
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const out = lib.request(url, { method: req.method, headers, agent }, (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY) fail(new HttpTransportError('network', `response body over ${MAX_BODY} bytes`, false));
          else chunks.push(chunk);
        });
        res.on('error', (e) => fail(new HttpTransportError('network', `${(e as { code?: string }).code ?? e.name}: ${e.message}`, false)));
        res.on('aborted', () => fail(new HttpTransportError('network', 'the connection ended mid-answer', false)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          cleanup();
          const out: Record<string, string | undefined> = {};
          for (const [k, v] of Object.entries(res.headers)) out[k.toLowerCase()] = Array.isArray(v) ? v[v.length - 1] : v;
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      out.on('socket', (socket) => {
        // a reused keep-alive socket is connected already; a new one says so once connected
        if (!socket.connecting) sent = true;
        else socket.once('connect', () => (sent = true));
      });
      out.on('error', (e: Error & { code?: string }) => {
        const code = e.code ?? '';
        fail(new HttpTransportError('network', `${code || e.name}: ${e.message}`, !sent && NOT_SENT_CODES.has(code)));
      });
      out.end(req.body);
    });
  };
  return {
    transport,
    close: async () => {
      plain.destroy();
      (await secure)?.destroy();
    },
  };
}

/** node:https (and TLS) is loaded with the first https URL: a cabinet's tests and benches talk plain HTTP. */
async function httpsModule(): Promise<typeof https> {
  return (await import('node:https')).default;
}

/**
 * The https pool, with one TLS context for every connection it opens. Left to itself node:https builds a context (an
 * OpenSSL SSL_CTX) for each new connection and frees it only when V8 collects the socket: a client reconnecting for
 * days fragments its heap with them (+21 MB over 4,000 connections in a bare client, +2–7 MB with one context;
 * docs/benchmarks.md "Third pass"). The context is the default one — the runtime's trust store and NODE_EXTRA_CA_CERTS
 * — and each connection still checks the server's certificate chain and name (rejectUnauthorized stays on).
 */
async function securePool(pool: https.AgentOptions): Promise<https.Agent> {
  const [https, tls] = await Promise.all([httpsModule(), import('node:tls')]);
  return new https.Agent({ ...pool, secureContext: tls.default.createSecureContext() });
}

/** One streamed GET (downloads the cabinet keeps, such as ad media): the answer's head and its body as it arrives. */
export interface StreamedResponse {
  status: number;
  /** Lower-case names; a repeated header's first value. */
  headers: Record<string, string | undefined>;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection (idempotent). */
  cancel(): void;
}

/**
 * GET over node:http/https, no redirects followed, `accept-encoding: identity`, no keep-alive; the
 * head must come within `timeoutMs` and then no gap between chunks may last longer (an inactivity
 * timeout on the socket, as undici's headersTimeout/bodyTimeout). Rejects on a network error.
 */
export async function streamedGet(rawUrl: string, opts: { signal: AbortSignal; timeoutMs: number }): Promise<StreamedResponse> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
  const lib = url.protocol === 'https:' ? await httpsModule() : http;
  return new Promise<StreamedResponse>((resolve, reject) => {
    const req = lib.request(url, { method: 'GET', headers: { 'accept-encoding': 'identity' }, agent: false, signal: opts.signal }, (res: IncomingMessage) => {
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v[0] : v;
      resolve({
        status: res.statusCode ?? 0,
        headers,
        body: res,
        cancel: () => {
          if (res.destroyed) return;
          // an unread body errors with "aborted" when destroyed: that is expected here, not a crash
          res.on('error', () => {});
          res.destroy();
          req.destroy();
        },
      });
    });
    req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`no data for ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
