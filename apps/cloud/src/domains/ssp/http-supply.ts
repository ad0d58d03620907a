import { request, type Dispatcher } from 'undici';
import {
  SupplyCounters,
  SupplyPopError,
  type PopTarget,
  type SupplyAdapter,
  type SupplyFill,
  type SupplyLogger,
  type SupplyRequest,
  type SupplyStats,
} from './supply.ts';
import { readAnswer, toWireRequest } from './vistar-wire.ts';

/** Largest get_ad answer read; three leases are a couple of kilobytes. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface HttpSupplyOptions {
  /** The SSP's API base: the adapter POSTs `{url}/get_ad/json` (Vistar: `https://api.vistarmedia.com/api/v1`). */
  url: string;
  apiKey: string;
  networkId: string;
  /** Per call (get_ad or PoP), from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Provider name recorded with each fill; default `vistar` (the wire format it speaks). */
  name?: string;
  /** undici dispatcher (tests; a proxy); the global one otherwise. */
  dispatcher?: Dispatcher;
}

/** What went wrong with a call that threw: the timeout, or the network. */
function failureOf(err: unknown, timeout: AbortSignal, timeoutMs: number, what: string): string {
  if (timeout.aborted) return `${what} did not answer within ${timeoutMs} ms`;
  const code = (err as { code?: unknown }).code;
  return `${what} unreachable${typeof code === 'string' ? ` (${code})` : ''}`;
}

/**
 * An outside SSP over HTTP, in Vistar's wire format (vistar-wire.ts), through undici with a hard
 * timeout. `fill` never throws: a refusal, a 5xx, a timeout, an oversized or unreadable answer is []
 * (logged, counted). `firePop` GETs the lease's PoP URL (with `display_time`); 2xx and 409 are done.
 */
export class HttpSupply implements SupplyAdapter {
  readonly name: string;
  readonly #counters = new SupplyCounters();
  readonly #endpoint: string;

  constructor(
    private readonly opts: HttpSupplyOptions,
    private readonly logger: SupplyLogger,
  ) {
    this.name = opts.name ?? 'vistar';
    this.#endpoint = `${opts.url.replace(/\/+$/, '')}/get_ad/json`;
  }

  /** Where get_ad is asked. */
  get endpoint(): string {
    return this.#endpoint;
  }

  async fill(req: SupplyRequest): Promise<SupplyFill[]> {
    if (!(req.maxFills >= 1)) return [];
    this.#counters.asked();
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const res = await request(this.#endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(toWireRequest(req, this.opts)),
        signal: timeout,
        ...(this.opts.dispatcher ? { dispatcher: this.opts.dispatcher } : {}),
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return this.#failed(req, `SSP answered HTTP ${res.statusCode}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > MAX_ANSWER_BYTES) {
          res.body.destroy();
          return this.#failed(req, `SSP answer larger than ${MAX_ANSWER_BYTES} bytes`);
        }
        chunks.push(buf);
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return this.#failed(req, 'SSP answer was not JSON');
      }
      const read = readAnswer(json, { maxFills: req.maxFills, now: req.now, base: this.#endpoint });
      if (!read.ok) return this.#failed(req, read.reason);
      this.#counters.answered(read.fills.length, read.dropped);
      return read.fills;
    } catch (err) {
      return this.#failed(req, failureOf(err, timeout, this.opts.timeoutMs, 'SSP'));
    }
  }

  async firePop(fill: PopTarget): Promise<void> {
    let url: URL;
    try {
      url = new URL(fill.popUrl);
    } catch {
      throw new SupplyPopError(`PoP URL of ${fill.leaseId} is not an absolute URL`, true);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SupplyPopError(`PoP URL of ${fill.leaseId} is not http(s)`, true);
    if (fill.displayedAt !== undefined && !url.searchParams.has('display_time')) {
      url.searchParams.set('display_time', String(Math.floor(fill.displayedAt / 1000)));
    }
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    let status: number;
    try {
      const res = await request(url, {
        method: 'GET',
        signal: timeout,
        ...(this.opts.dispatcher ? { dispatcher: this.opts.dispatcher } : {}),
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (err) {
      throw new SupplyPopError(`PoP of ${fill.leaseId}: ${failureOf(err, timeout, this.opts.timeoutMs, 'SSP')}`, false);
    }
    if ((status >= 200 && status < 300) || status === 409) return;
    // 4xx is the SSP's final word on this lease (unknown, expired, refused); 408, 429 and 5xx may pass
    const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
    throw new SupplyPopError(`PoP of ${fill.leaseId}: SSP answered HTTP ${status}`, permanent, status);
  }

  stats(): SupplyStats {
    return this.#counters.snapshot();
  }

  #failed(req: SupplyRequest, reason: string): SupplyFill[] {
    this.#counters.fail(reason, req.now);
    this.logger.warn({ provider: this.name, machineNo: req.machineNo, reason }, 'programmatic fill failed; the loop goes on without it');
    return [];
  }
}
