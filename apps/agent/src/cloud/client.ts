import { z } from 'zod';
import {
  AdLoopData,
  CheckoutData,
  ConfigBlock,
  CreateOrderData,
  DEVICE_CREDENTIAL_HEADER,
  DEVICE_KEY_HEADER,
  DEVICE_WITNESS_HEADER,
  EnrolData,
  FLEET_SECRET_HEADER,
  GoodsData,
  HeartbeatData,
  PendingData,
  PrizeEventsData,
  PrizeStateData,
  RegisterData,
  ReportData,
  SaveAdRecordData,
  UpgradeData,
  parseDeviceKey,
} from '@vend/protocol';
import type { AdPlayRecord, Clock, CreateOrderRequest, HeartbeatRequest, PrizeEvent, RegisterRequest, ReportRequest } from '@vend/protocol';
import { backoffDelay, parseRetryAfter, sleep } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import type { CredentialStore } from './credentials.ts';
import { HttpTransportError } from './http.ts';
import type { HttpRequest, HttpTransport } from './http.ts';

/** How a leg authenticates: the device key only, the key or (before enrolment) the fleet secret, the fleet secret only (enrolment). */
type LegAuth = 'key' | 'key-or-secret' | 'secret';

interface LegSpec {
  method: 'GET' | 'POST';
  path: string;
  auth: LegAuth;
  /** Safe to send twice: retried after a timeout. createOrder is not (a lost answer may hide an order). */
  idempotent: boolean;
}

/** The gateway legs the agent calls (spec 2 §4.1, §5). */
export const LEGS = {
  register: { method: 'POST', path: '/cabinet/register', auth: 'key-or-secret', idempotent: true },
  enrol: { method: 'POST', path: '/cabinet/enrol', auth: 'secret', idempotent: false },
  heartbeat: { method: 'POST', path: '/cabinet/heartbeat', auth: 'key', idempotent: true },
  config: { method: 'GET', path: '/cabinet/config', auth: 'key-or-secret', idempotent: true },
  goods: { method: 'GET', path: '/cabinet/goods', auth: 'key-or-secret', idempotent: true },
  createOrder: { method: 'POST', path: '/cabinet/createOrder', auth: 'key-or-secret', idempotent: false },
  report: { method: 'POST', path: '/cabinet/report', auth: 'key', idempotent: true },
  pending: { method: 'GET', path: '/cabinet/pending', auth: 'key', idempotent: true },
  upgrade: { method: 'GET', path: '/cabinet/upgrade', auth: 'key', idempotent: true },
  // family A's ad legs take the device key like /cabinet (spec 2 §4.2); the agent calls them only once enrolled
  getAd: { method: 'GET', path: '/apk/getAd', auth: 'key', idempotent: true },
  /** Idempotent on (machine, entry id, playedAt): a batch sent twice counts once. */
  saveAdRecord: { method: 'POST', path: '/apk/saveAdRecord', auth: 'key', idempotent: true },
  /** The kiosk prize game: idempotent on (machine, eventId); device key only. */
  prizeEvents: { method: 'POST', path: '/cabinet/prize-events', auth: 'key', idempotent: true },
  prizeMechanics: { method: 'GET', path: '/cabinet/prize-mechanics', auth: 'key', idempotent: true },
  /** Pay by phone (the kiosk's screen): a new checkout is not retried blind (the cloud answers a second one busy). */
  checkoutCreate: { method: 'POST', path: '/cabinet/checkouts', auth: 'key', idempotent: false },
  /** `/cabinet/checkouts/{checkoutId}`: the path's id is appended by the call. */
  checkoutGet: { method: 'GET', path: '/cabinet/checkouts', auth: 'key', idempotent: true },
  checkoutCancel: { method: 'POST', path: '/cabinet/checkouts', auth: 'key', idempotent: true },
} as const satisfies Record<string, LegSpec>;
export type Leg = keyof typeof LEGS;

export type CloudErrorKind =
  /** No HTTP answer: connection refused, reset, DNS. */
  | 'unreachable'
  | 'timeout'
  /** The cloud answered with an error status (see `status`). */
  | 'http'
  /** 403 to the device key: revoked. Nothing is presented any more. */
  | 'revoked'
  /** The leg needs a credential the agent does not have (not enrolled, or revoked). */
  | 'no-credential'
  /** 2xx whose body is not what the protocol says. */
  | 'bad-response'
  | 'aborted';

export class CloudError extends Error {
  constructor(
    readonly kind: CloudErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
    /** The request provably never reached the cloud. */
    readonly notSent = false,
  ) {
    super(message);
    this.name = 'CloudError';
  }

  /** Worth trying again later: the cloud (or the way to it) may recover. */
  get transient(): boolean {
    if (this.kind === 'unreachable' || this.kind === 'timeout') return true;
    if (this.kind !== 'http' || this.status === null) return false;
    return this.status >= 500 || this.status === 429 || this.status === 408;
  }
}

/** What the status view shows about the cloud. */
export interface Reachability {
  /** The last call that got any HTTP answer. */
  lastAnswerAt: number | null;
  lastSuccessAt: number | null;
  lastError: { at: number; leg: Leg; message: string } | null;
  /** Calls in a row with no HTTP answer. */
  consecutiveFailures: number;
  /** The cloud's last word on this cabinet was 410: the machine is retired (the report leg, still served then, says nothing). */
  retired: boolean;
}

export interface CloudLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CloudClientOptions {
  baseUrl: string;
  equipmentNo: string;
  fleetSecret?: string | undefined;
  credentials: CredentialStore;
  transport: HttpTransport;
  clock: Clock;
  random: RandomSource;
  timeoutMs: number;
  backoff: { baseMs: number; capMs: number };
  log: CloudLogger;
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string>;
  /** Attempts in all (1 = no retry). Default 3. */
  attempts?: number;
  /** This call's deadline instead of the client's (a long poll waits longer than an answer takes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The caller made this call safe to send twice (createOrder with a requestRef): retried after a timeout too. */
  idempotent?: boolean;
  /** Path segments after the leg's path (each URI-encoded): the resource a leg names by id. */
  pathTail?: string[];
}

const Envelope = z.object({ code: z.number().optional(), message: z.string().optional(), data: z.unknown() });

/**
 * The agent's side of the cabinet gateway. Per call: the device key once enrolled (the `secret`
 * header only before, and only on the legs that take it), the last witness token it was handed
 * (never an invented one), an 8 s deadline, and retries with capped exponential backoff and
 * jitter that honour Retry-After. Every answer is read for a rotated credential, which is stored
 * before the next call presents it; a 403 to the key means revoked, and the key is never presented
 * again.
 */
export class CloudClient {
  private witness: string | null = null;
  /** Requests sent so far (each attempt counts): the order the cloud saw them in, as far as the agent can tell. */
  private sent = 0;
  /** The send number of the request whose answer carried `witness`. */
  private witnessFrom = 0;
  readonly reachability: Reachability = { lastAnswerAt: null, lastSuccessAt: null, lastError: null, consecutiveFailures: 0, retired: false };

  constructor(private readonly opts: CloudClientOptions) {}

  get equipmentNo(): string {
    return this.opts.equipmentNo;
  }

  /** The witness token the next call will echo (tests and status; not secret, but not shown either). */
  get lastWitness(): string | null {
    return this.witness;
  }

  get enrolled(): boolean {
    return this.opts.credentials.current() !== null;
  }

  // --- legs ------------------------------------------------------------------------------------

  register(body: Omit<RegisterRequest, 'equipmentNo'>, options: CallOptions = {}) {
    return this.call('register', RegisterData, { ...options, body: { equipmentNo: this.opts.equipmentNo, ...body } });
  }
  enrol(deviceId: string, options: CallOptions = {}) {
    return this.call('enrol', EnrolData, { attempts: 1, ...options, body: { equipmentNo: this.opts.equipmentNo, deviceId } });
  }
  heartbeat(body: Omit<HeartbeatRequest, 'equipmentNo'>, options: CallOptions = {}) {
    return this.call('heartbeat', HeartbeatData, { ...options, body: { equipmentNo: this.opts.equipmentNo, ...body } });
  }
  config(options: CallOptions = {}) {
    return this.call('config', ConfigBlock, options);
  }
  goods(options: CallOptions = {}) {
    return this.call('goods', GoodsData, options);
  }
  /** With `requestRef` a retry after a lost answer gets the same order back, so it is retried like an idempotent leg. */
  createOrder(body: Omit<CreateOrderRequest, 'equipmentNo'>, options: CallOptions = {}) {
    return this.call('createOrder', CreateOrderData, {
      idempotent: body.requestRef !== undefined,
      ...options,
      body: { equipmentNo: this.opts.equipmentNo, ...body },
    });
  }
  report(body: Omit<ReportRequest, 'equipmentNo'>, options: CallOptions = {}) {
    return this.call('report', ReportData, { ...options, body: { equipmentNo: this.opts.equipmentNo, ...body } });
  }
  /**
   * With `wait` (seconds, at most PENDING_WAIT_MAX_SECONDS) a long poll: the cloud may hold an empty answer
   * that long, so the deadline of this call is the wait plus the usual one. A cloud that predates `wait`
   * ignores it and answers at once.
   */
  pending(options: CallOptions & { wait?: number } = {}) {
    const { wait, ...rest } = options;
    if (!wait) return this.call('pending', PendingData, rest);
    return this.call('pending', PendingData, { timeoutMs: wait * 1000 + this.opts.timeoutMs, ...rest, query: { ...rest.query, wait: String(wait) } });
  }
  /** The offer for this cabinet: the artifact for `arch` (this process's architecture unless given). */
  upgrade(agentVersion: string, options: CallOptions & { arch?: string } = {}) {
    const { arch = process.arch, ...rest } = options;
    return this.call('upgrade', UpgradeData, { ...rest, query: { agentVersion, arch } });
  }
  /** The attract loop (relative media URLs are the cloud's). */
  getAd(options: CallOptions = {}) {
    return this.call('getAd', AdLoopData, { ...options, query: { ...options.query, equipmentNo: this.opts.equipmentNo } });
  }
  /** Proof of play: at most AD_RECORDS_MAX records, each with its playedAt (so a retry counts once). */
  saveAdRecords(records: AdPlayRecord[], options: CallOptions = {}) {
    return this.call('saveAdRecord', SaveAdRecordData, { ...options, body: { equipmentNo: this.opts.equipmentNo, records } });
  }
  /** The kiosk's game events: at most PRIZE_EVENTS_MAX, each by its eventId (so a retry counts once); the verdicts and the state. */
  prizeEvents(events: PrizeEvent[], options: CallOptions = {}) {
    return this.call('prizeEvents', PrizeEventsData, { ...options, body: { equipmentNo: this.opts.equipmentNo, events } });
  }
  /** What the cabinet's game must follow now. */
  prizeMechanics(options: CallOptions = {}) {
    return this.call('prizeMechanics', PrizeStateData, { ...options, query: { ...options.query, equipmentNo: this.opts.equipmentNo } });
  }

  /** Pay by phone: a checkout for the aisle at the cloud's price (409 busy, sold out; 503 no processor). */
  createCheckout(aisleNo: number, options: CallOptions = {}) {
    return this.call('checkoutCreate', CheckoutData, { ...options, body: { equipmentNo: this.opts.equipmentNo, aisleNo } });
  }
  checkout(checkoutId: string, options: CallOptions = {}) {
    return this.call('checkoutGet', CheckoutData, { ...options, pathTail: [checkoutId] });
  }
  cancelCheckout(checkoutId: string, options: CallOptions = {}) {
    return this.call('checkoutCancel', CheckoutData, { ...options, pathTail: [checkoutId, 'cancel'], body: { equipmentNo: this.opts.equipmentNo } });
  }

  // --- machinery -------------------------------------------------------------------------------

  /** One leg with retries. Throws CloudError. */
  async call<S extends z.ZodType>(leg: Leg, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    const attempts = Math.max(1, options.attempts ?? 3);
    const spec: LegSpec = LEGS[leg];
    let credentialRetry = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(leg, schema, options);
      } catch (e) {
        if (!(e instanceof CloudError)) throw e;
        if (e.kind === 'http' && e.status === 401 && e.message === STALE_CREDENTIAL && !credentialRetry) {
          // a rotation finished while this call was out with the previous generation: once more, now
          credentialRetry = true;
          attempt--;
          continue;
        }
        const retryable = e.transient && ((options.idempotent ?? spec.idempotent) || e.notSent || e.status === 429 || e.status === 503);
        if (!retryable || attempt + 1 >= attempts) throw e;
        const wait = backoffDelay(attempt, { ...this.opts.backoff, random: this.opts.random }, e.retryAfterMs);
        this.opts.log.debug({ leg, attempt: attempt + 1, waitMs: wait, error: e.message }, 'cloud call failed; retrying');
        if (!(await sleep(this.opts.clock, wait, options.signal))) throw new CloudError('aborted', 'aborted');
      }
    }
  }

  private headersFor(leg: Leg, spec: LegSpec): { headers: Record<string, string>; used: string | null } {
    const headers: Record<string, string> = { accept: 'application/json', 'x-equipment-no': this.opts.equipmentNo };
    const key = this.opts.credentials.current();
    let used: string | null = null;
    if (spec.auth === 'secret') {
      if (this.opts.credentials.isRevoked()) throw new CloudError('revoked', 'the credential is revoked: this cabinet does not enrol again');
      if (!this.opts.fleetSecret) throw new CloudError('no-credential', 'no fleet secret is configured');
      headers[FLEET_SECRET_HEADER] = this.opts.fleetSecret;
    } else if (key !== null) {
      headers[DEVICE_KEY_HEADER] = key;
      used = key;
    } else if (this.opts.credentials.isRevoked()) {
      throw new CloudError('revoked', `the credential is revoked: ${leg} is not called`);
    } else if (spec.auth === 'key-or-secret' && this.opts.fleetSecret) {
      headers[FLEET_SECRET_HEADER] = this.opts.fleetSecret;
    } else {
      throw new CloudError('no-credential', `${leg} needs the cabinet's device key: not enrolled yet`);
    }
    // Echo the last token seen; with none seen (first call, state lost), send none — never invent one.
    if (this.witness !== null) headers[DEVICE_WITNESS_HEADER] = this.witness;
    return { headers, used };
  }

  private async once<S extends z.ZodType>(leg: Leg, schema: S, options: CallOptions): Promise<z.infer<S>> {
    const spec: LegSpec = LEGS[leg];
    const { headers, used } = this.headersFor(leg, spec);
    const tail = (options.pathTail ?? []).map((seg) => `/${encodeURIComponent(seg)}`).join('');
    const url = new URL(this.opts.baseUrl + spec.path + tail);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const req: HttpRequest = { method: spec.method, url: url.toString(), headers, timeoutMs: options.timeoutMs ?? this.opts.timeoutMs };
    if (options.signal) req.signal = options.signal;
    if (options.body !== undefined) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(options.body);
    }
    const now = (): number => this.opts.clock.now();
    const seq = ++this.sent;
    let res;
    try {
      res = await this.opts.transport(req);
    } catch (e) {
      const failure = e instanceof HttpTransportError ? e : new HttpTransportError('network', (e as Error).message, false);
      if (failure.kind === 'aborted') throw new CloudError('aborted', 'aborted');
      this.reachability.consecutiveFailures++;
      const err = new CloudError(failure.kind === 'timeout' ? 'timeout' : 'unreachable', `${leg}: ${failure.message}`, null, null, failure.notSent);
      this.reachability.lastError = { at: now(), leg, message: err.message };
      throw err;
    }
    this.reachability.lastAnswerAt = now();
    this.reachability.consecutiveFailures = 0;

    // The cloud accepts only its last few tokens. With calls overlapping (heartbeat, poll, config,
    // spool), answers arrive in any order: keep the token of the most recently *sent* request (the
    // newest the cloud minted, as near as the agent can know), not of the answer that came last.
    const witness = res.headers[DEVICE_WITNESS_HEADER];
    if (witness && seq > this.witnessFrom) {
      this.witness = witness;
      this.witnessFrom = seq;
    }
    const handed = res.headers[DEVICE_CREDENTIAL_HEADER];
    // A handover is taken only from an answer to the credential in use now; one answering an older
    // generation (a call in flight while a rotation completed) is stale and ignored.
    if (handed && used !== null && this.opts.credentials.current() === used && handed !== used) {
      if (parseDeviceKey(handed)) {
        this.opts.credentials.replace(handed);
        this.opts.log.info({ keyId: parseDeviceKey(handed)?.keyId }, 'credential rotated: the new generation is stored and presented from now on');
      } else {
        this.opts.log.warn({ leg }, 'ignored an x-device-credential that is not keyId:secret');
      }
    }

    let envelope: z.infer<typeof Envelope> | null = null;
    try {
      const parsed = Envelope.safeParse(JSON.parse(res.body));
      if (parsed.success) envelope = parsed.data;
    } catch {
      envelope = null;
    }
    if (res.status >= 200 && res.status < 300) {
      const data = schema.safeParse(envelope?.data);
      if (!envelope || !data.success) {
        const err = new CloudError('bad-response', `${leg}: the answer is not the protocol's shape`, res.status);
        this.reachability.lastError = { at: now(), leg, message: err.message };
        throw err;
      }
      this.reachability.lastSuccessAt = now();
      if (leg !== 'report') this.reachability.retired = false;
      return data.data as z.infer<S>;
    }
    const message = envelope?.message ?? `HTTP ${res.status}`;
    if (res.status === 410) this.reachability.retired = true;
    if (res.status === 403 && used !== null) {
      // spec 2 §7: the agent treats 403 to its key as revocation — stop presenting, never re-enrol
      this.opts.credentials.markRevoked(message);
      this.opts.log.error({ leg, status: 403, message }, 'the cloud revoked this cabinet credential: the agent stops presenting it and will not enrol again');
      const err = new CloudError('revoked', `${leg}: credential revoked (${message})`, 403);
      this.reachability.lastError = { at: now(), leg, message: err.message };
      throw err;
    }
    if (res.status === 401 && used !== null && this.opts.credentials.current() !== used) {
      throw new CloudError('http', STALE_CREDENTIAL, 401);
    }
    const err = new CloudError('http', `${leg}: ${res.status} ${message}`, res.status, parseRetryAfter(res.headers['retry-after'], now()));
    this.reachability.lastError = { at: now(), leg, message: err.message };
    throw err;
  }
}

const STALE_CREDENTIAL = 'answered with the previous credential generation';
