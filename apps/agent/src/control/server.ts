import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  ControlEnrolment,
  ControlHealth,
  ControlNetworkStatus,
  ControlNetworkSwitch,
  ControlNetworkToken,
  NetworkRequest,
  ControlPlanogram,
  ControlServiceCheck,
  ControlServiceStatus,
  ControlStatus,
  ControlUpgradeCheck,
  ControlUpgradeProgress,
  ControlVendResult,
  ControlVends,
  PAY_METHODS,
  SERVICE_ACTIONS,
} from '@vend/protocol';
import type { ServiceAction } from '@vend/protocol';
import { NetworkRefused } from '../network/provisioner.ts';
import { LOOPBACK_HOSTS } from '../config.ts';
import { DispenseRefused } from '../spool/dispenser.ts';
import type { WalkUpRequest } from '../spool/dispenser.ts';
import type { KioskAds } from '../ads/ads.ts';
import type { KioskPrizes } from '../prizes/prizes.ts';
import { isKioskPath, handleKiosk } from './kiosk.ts';
import type { KioskStorefrontApi } from './kiosk-screen.ts';
import { answer, readBody, refuse } from './respond.ts';

/** What the control channel serves; the daemon provides it, shaped as @vend/protocol's control.ts says. */
export interface ControlApi {
  status(): ControlStatus;
  planogram(): Promise<ControlPlanogram>;
  walkUp(req: WalkUpRequest): Promise<ControlVendResult>;
  vends(limit: number): ControlVends['vends'];
  enrolNow(): Promise<ControlEnrolment>;
  /** Check for an upgrade now (the upgrade pipeline's trigger). */
  upgradeCheck(): Promise<ControlUpgradeCheck>;
  /** What the upgrade pipeline is doing now (download progress); absent: always `idle`. */
  upgradeProgress?(): ControlUpgradeProgress;
  /** The service-code gate: its state, and a technician's code checked for an action (service/gate.ts). */
  service?: {
    status(): ControlServiceStatus;
    check(code: string, action: ServiceAction): Promise<ControlServiceCheck>;
  };
  /** Network provisioning (network/provisioner.ts): a token after the service code, then a switch with it. */
  network?: {
    status(): Promise<ControlNetworkStatus>;
    /** The service code checked for `network`; a token when it was right, else the gate's verdict. */
    token(code: string): Promise<ControlNetworkToken | ControlServiceCheck>;
    /** Starts a switch (NetworkRefused: no live token, another switch runs, no network stack). */
    apply(token: string, req: NetworkRequest): Promise<ControlNetworkSwitch>;
  };
}

export interface ControlLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ControlServerOptions {
  host: string;
  port: number;
  /** The bearer token, read when a request arrives (an empty one authenticates nobody). */
  token: () => string;
  api: ControlApi;
  /** Screen advertising for the kiosk (the routes under /v1/ads/, kiosk.ts); null or absent: they answer 404. */
  ads?: KioskAds | null;
  /** The kiosk prize game (the routes under /v1/prizes/, kiosk.ts); null or absent: they answer 404. */
  prizes?: KioskPrizes | null;
  /** The storefront and pay by phone (the routes under /v1/kiosk/, kiosk-screen.ts); null or absent: they answer 404. */
  storefront?: KioskStorefrontApi | null;
  /** The screen's built files (served under /screen/); null or absent: 404. */
  screenDir?: string | null;
  /** The cloud's origin (the screen's pictures and media may come from there). */
  cloudOrigin?: string | null;
  /** Aborted when the daemon stops. */
  signal?: AbortSignal;
  log: ControlLogger;
}

export interface ControlServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export class ControlBindError extends Error {}

const MAX_BODY = 4096;

export const DispenseBody = z.strictObject({
  aisle: z.number().int().min(1).max(1024),
  payMethod: z.enum(PAY_METHODS).optional(),
  cardBrand: z.string().min(1).max(32).optional(),
  cardLast4: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});

/** A technician's service code from the kiosk UI; a code that is not 6–12 digits is still checked (and counted) as wrong. */
export const ServiceCheckBody = z.strictObject({ code: z.string().max(64), action: z.enum(SERVICE_ACTIONS) });

const SERVICE_CHECK_STATUS = { ok: 200, wrong: 403, locked: 423, 'no-code': 409 } as const;

export const NetworkTokenBody = z.strictObject({ code: z.string().max(64) });
export const NetworkApplyBody = z.strictObject({ token: z.string().max(128), network: NetworkRequest });
const NETWORK_REFUSAL_STATUS = { token: 403, busy: 409, unavailable: 503 } as const;

/** HTTP status of each refusal: busy is a conflict; "cannot now" is 503; the cloud's own refusal keeps its meaning. */
function refusalStatus(refusal: DispenseRefused): number {
  switch (refusal.code) {
    case 'busy':
      return 409;
    case 'bad-aisle':
      return 400;
    case 'cloud-refused':
      return refusal.cloudStatus === 409 || refusal.cloudStatus === 400 ? refusal.cloudStatus : 502;
    case 'not-ready':
    case 'disk-full':
    case 'spool-full':
    case 'board-unavailable':
    case 'cloud-unreachable':
    case 'not-enrolled':
      return 503;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The loopback control channel (spec 2 §8: loopback, port 8770): for the kiosk screen and the
 * technician's CLI. Binds 127.0.0.1 or ::1 and nothing else. Every endpoint but /healthz and the kiosk ad routes needs
 * `Authorization: Bearer <token>` (the per-cabinet token in the state directory); with an empty
 * token nothing authenticates, so every dispense is refused. Requests naming a non-loopback Host
 * are refused too (a web page in the kiosk's browser cannot reach it by DNS rebinding).
 *
 *   GET  /healthz           liveness, no token
 *   GET  /v1/status         enrolment, cloud, versions, board link, spool, last errors
 *   GET  /v1/planogram      the goods list (SKUs, prices, stock, faulted lanes)
 *   POST /v1/dispense       {aisle, payMethod?, cardBrand?, cardLast4?}: a walk-up sale after local payment
 *   GET  /v1/vends?limit=N  the last vend results, newest first
 *   POST /v1/enrol          try enrolment now
 *   POST /v1/upgrade/check  check for an upgrade now (declined with a deferral while the cabinet is busy)
 *   GET  /v1/upgrade/progress  what the upgrade pipeline is doing: idle, checking, downloading (bytes of the signed size), installing
 *   GET  /v1/service        the service-code gate: code set, failures, lockout
 *   POST /v1/service/check  {code, action}: 200 ok, 403 wrong, 423 locked, 409 no code set (5 wrong: 300 s lockout)
 *   GET  /v1/network        the connection in force, networks kept, a switch under way, the last one's end
 *   POST /v1/network/token  {code}: a provisioning token (600 s, one switch) once the service code is right; 403 wrong, 423 locked, 409 no code ({error, message})
 *   POST /v1/network        {token, network}: start a switch; 403 token unknown/used/expired, 409 a switch runs, 503 no network stack
 *   /v1/ads/..., /v1/prizes/...  the kiosk's routes: no token, an exact Host and an allowed Origin instead (kiosk.ts)
 */
export async function startControlServer(opts: ControlServerOptions): Promise<ControlServer> {
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(opts.host))
    throw new ControlBindError(`the control channel binds to loopback only (127.0.0.1 or ::1), not ${opts.host}`);
  const bound = { port: opts.port };
  const server = createServer((req, res) => {
    handle(opts, bound.port, req, res).catch((e: unknown) => {
      opts.log.warn({ error: (e as Error).message, path: req.url }, 'control channel request failed');
      if (!res.headersSent) refuse(res, 500, 'internal', 'internal error');
    });
  });
  server.requestTimeout = 90_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  bound.port = addr.port;
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(addr.address)) {
    server.close();
    throw new ControlBindError(`the control channel ended up on ${addr.address}; refusing`);
  }
  const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${hostPart}:${addr.port}`,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true; // HTTP/1.0 without Host: only a local client
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function authorised(req: IncomingMessage, token: string): boolean {
  if (token === '') return false;
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(token));
}

async function handle(opts: ControlServerOptions, port: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  if (!loopbackHost(req.headers.host)) return refuse(res, 421, 'misdirected', 'the control channel answers loopback names only');
  if (route === 'GET /healthz') return answer(res, ControlHealth, { ok: true });
  // the kiosk's browser holds no token: these routes check Host exactly and the Origin instead (kiosk.ts)
  if (isKioskPath(url.pathname))
    return handleKiosk(req, res, url, {
      ads: opts.ads ?? null,
      prizes: opts.prizes ?? null,
      storefront: opts.storefront ?? null,
      screenDir: opts.screenDir ?? null,
      cloudOrigin: opts.cloudOrigin ?? null,
      ...(opts.signal ? { signal: opts.signal } : {}),
      port,
    });
  const token = opts.token();
  if (!authorised(req, token)) {
    res.setHeader('www-authenticate', 'Bearer');
    return refuse(
      res,
      401,
      'unauthorized',
      token === ''
        ? 'this cabinet has an empty control token: the control channel accepts nobody and refuses every dispense'
        : 'a valid bearer token is required',
    );
  }
  switch (route) {
    case 'GET /v1/status':
      return answer(res, ControlStatus, opts.api.status());
    case 'GET /v1/planogram':
      return answer(res, ControlPlanogram, await opts.api.planogram());
    case 'GET /v1/vends': {
      const requested = Number(url.searchParams.get('limit') ?? '20');
      const limit = Number.isInteger(requested) && requested >= 1 && requested <= 200 ? requested : 20;
      return answer(res, ControlVends, { vends: opts.api.vends(limit) });
    }
    case 'POST /v1/enrol':
      return answer(res, ControlEnrolment, await opts.api.enrolNow());
    case 'POST /v1/upgrade/check':
      return answer(res, ControlUpgradeCheck, await opts.api.upgradeCheck());
    case 'GET /v1/upgrade/progress':
      return answer(res, ControlUpgradeProgress, opts.api.upgradeProgress?.() ?? { state: 'idle' });
    case 'GET /v1/service':
      if (!opts.api.service) return refuse(res, 404, 'not-found', 'this daemon has no service-code gate');
      return answer(res, ControlServiceStatus, opts.api.service.status());
    case 'POST /v1/service/check': {
      if (!opts.api.service) return refuse(res, 404, 'not-found', 'this daemon has no service-code gate');
      const body = await readBody(req, res, ServiceCheckBody, MAX_BODY);
      if (body === null) return;
      const verdict = await opts.api.service.check(body.code, body.action);
      return answer(res, ControlServiceCheck, verdict, SERVICE_CHECK_STATUS[verdict.result]);
    }
    case 'GET /v1/network':
    case 'POST /v1/network/token':
    case 'POST /v1/network':
      return handleNetwork(opts, route, req, res);
    case 'POST /v1/dispense': {
      const body = await readBody(req, res, DispenseBody, MAX_BODY);
      if (body === null) return;
      try {
        const walkUp: WalkUpRequest = { aisle: body.aisle };
        if (body.payMethod) walkUp.payMethod = body.payMethod;
        if (body.cardBrand) walkUp.cardBrand = body.cardBrand;
        if (body.cardLast4) walkUp.cardLast4 = body.cardLast4;
        const result = await opts.api.walkUp(walkUp);
        opts.log.info({ dispenseId: result.dispenseId, outcome: result.outcome }, 'walk-up dispense through the control channel');
        return answer(res, ControlVendResult, result);
      } catch (e) {
        if (e instanceof DispenseRefused) return refuse(res, refusalStatus(e), e.code, e.message);
        throw e;
      }
    }
    default:
      return refuse(
        res,
        404,
        'not-found',
        `no ${route}; see GET /v1/status, /v1/planogram, /v1/vends, /v1/service, /v1/network, /v1/upgrade/progress, /v1/ads/loop, POST /v1/dispense, /v1/enrol, /v1/upgrade/check, /v1/service/check, /v1/network/token, /v1/network, /v1/ads/plays, /v1/prizes/events`,
      );
  }
}

async function handleNetwork(opts: ControlServerOptions, route: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const network = opts.api.network;
  if (!network) return refuse(res, 404, 'not-found', 'this daemon does no network provisioning');
  if (route === 'GET /v1/network') return answer(res, ControlNetworkStatus, await network.status());
  if (route === 'POST /v1/network/token') {
    const body = await readBody(req, res, NetworkTokenBody, MAX_BODY);
    if (body === null) return;
    const issued = await network.token(body.code);
    if ('token' in issued) return answer(res, ControlNetworkToken, issued);
    // a refusal like any other ({error, message}: the CLI reads it so); GET /v1/service has the gate's detail
    return refuse(res, SERVICE_CHECK_STATUS[issued.result], issued.result, issued.message);
  }
  const body = await readBody(req, res, NetworkApplyBody, MAX_BODY);
  if (body === null) return;
  try {
    const started = await network.apply(body.token, body.network);
    opts.log.info({ connection: started.id, network: started.label }, 'network switch through the control channel');
    return answer(res, ControlNetworkSwitch, started);
  } catch (e) {
    if (e instanceof NetworkRefused) return refuse(res, NETWORK_REFUSAL_STATUS[e.code], e.code, e.message);
    throw e;
  }
}
