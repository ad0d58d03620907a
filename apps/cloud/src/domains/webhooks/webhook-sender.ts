import { request } from 'undici';

/** One attempt's outcome: the response status, or why no response came. */
export type SendResult = { status: number } | { error: string };

/** Posts one signed body; a port so the delivery loop can be driven without a network in unit tests. */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult>;
}

/** The real sender: undici, no redirects followed, the response body read and discarded. Never throws. */
export class UndiciWebhookSender implements WebhookSender {
  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'vend-webhooks/1', ...headers },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT';
      return { error: timedOut ? `no response within ${timeoutMs} ms` : (e.code ?? e.message ?? 'request failed').slice(0, 200) };
    }
  }
}
