import { Router, type RequestHandler, type Response } from 'express';
import {
  ConfigBlock,
  CreateOrderData,
  CreateOrderRequest,
  DEVICE_WITNESS_HEADER,
  EnrolData,
  EnrolRequest,
  GoodsData,
  HeartbeatData,
  HeartbeatRequest,
  PendingData,
  PendingQuery,
  RegisterData,
  RegisterRequest,
  ReportData,
  ReportRequest,
  SerialCarrier,
  UpgradeData,
  UpgradeQuery,
} from '@vend/protocol';
import { sendOk } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { parseBodies, type LeanRoute } from '../../http/lean-dispatch.ts';
import type { EnrolmentService } from '../device-credentials/enrolment.service.ts';
import type { DeviceRuntime } from '../device-credentials/runtime.ts';
import type { UpgradeOffersService } from '../releases/upgrade-offers.service.ts';
import type { SalesService } from '../orders/sales.service.ts';
import { cabinetOf, type CabinetGuard, type LegPolicy } from './device-auth.ts';
import type { DispenseReportsService } from './dispense-reports.service.ts';
import type { GatewayService } from './gateway.service.ts';
import type { PendingPollService } from './pending-poll.service.ts';

const CABINET_SERIAL_FIELDS = ['equipmentNo', 'serialNumber'] as const;
const HEARTBEAT = { leg: 'cabinet.heartbeat', fleetSecret: false, body: HeartbeatRequest, bodySerialFields: CABINET_SERIAL_FIELDS } satisfies LegPolicy;
const PENDING = { leg: 'cabinet.pending', fleetSecret: false, query: PendingQuery, bodySerialFields: CABINET_SERIAL_FIELDS } satisfies LegPolicy;

/**
 * The reason a held poll is let go when its client leaves: one shared value, because `abort()` without one
 * builds a DOMException with its stack for each (a mass disconnect of 12,000 cabinets spent ≈ 40 % of a
 * 200 ms hold of the loop on them, fleet bench --cpu-prof).
 */
const CLIENT_GONE = Object.freeze({ message: 'the client closed the connection' });

/** The pending leg's answer: at once, or held up to `wait` seconds (long poll) while the client stays. */
async function answerPending(poll: PendingPollService, machineId: string, wait: number | undefined, res: Response): Promise<void> {
  if (!wait) {
    sendOk(res, await poll.pending(machineId));
    return;
  }
  // a client that goes away mid-hold releases its place at once
  const gone = new AbortController();
  const onClose = () => gone.abort(CLIENT_GONE);
  res.once('close', onClose);
  try {
    const data = await poll.pending(machineId, { waitSeconds: wait, signal: gone.signal });
    if (!res.destroyed) sendOk(res, data);
  } finally {
    res.off('close', onClose);
  }
}

/**
 * Heartbeat and pending, the legs every cabinet calls all day, for the lean dispatch ahead of the stack
 * (`leanDispatch`): the same body parsers, credential check, input schemas and handlers as the routes below,
 * which still serve every other spelling of these legs. The check's parse of the input is the one used.
 */
export function gatewayHotLegs(
  cabinet: CabinetGuard,
  s: Pick<GatewayRouteServices, 'gateway' | 'pendingPoll'>,
  bodyParsers: readonly RequestHandler[],
): LeanRoute[] {
  return [
    {
      method: 'POST',
      path: '/cabinet/heartbeat',
      handle: async (req, res) => {
        await parseBodies(bodyParsers, req, res);
        const { caller, input } = await cabinet.check(req, res, HEARTBEAT);
        sendOk(res, await s.gateway.heartbeat(caller, input.body as HeartbeatRequest));
      },
    },
    {
      method: 'GET',
      path: '/cabinet/pending',
      handle: async (req, res) => {
        await parseBodies(bodyParsers, req, res);
        const { caller, input } = await cabinet.check(req, res, PENDING);
        await answerPending(s.pendingPoll, caller.machineId, (input.query as PendingQuery).wait, res);
      },
      // a long poll is held by design
      slow: (req, ms) => ms > 1000 && !('wait' in (req.query as Record<string, unknown>)),
    },
  ];
}
const GoodsQuery = SerialCarrier.pick({ equipmentNo: true });
const SerialQuery = SerialCarrier.pick({ equipmentNo: true });

/**
 * The cabinet gateway (spec 2 §4.1). Every response is the `{code, message, data}` envelope; the
 * `data` schemas are the ones in `@vend/protocol` the agent parses with. `cabinetAuth` resolves the
 * cabinet from its credential and judges the leg's body and query (the schemas handed to `auth`)
 * before anything is looked up by serial or written; the typed route then parses them (it cannot fail by
 * then) and the handler hands them to the service.
 */
export interface GatewayRouteServices {
  gateway: GatewayService;
  reports: DispenseReportsService;
  pendingPoll: PendingPollService;
  sales: SalesService;
  creds: EnrolmentService;
  releases: UpgradeOffersService;
  /** Mints the witness token a new credential stream starts with. */
  devices: DeviceRuntime;
}

export function gatewayRoutes(kit: RouteKit, cabinet: CabinetGuard, s: GatewayRouteServices): Router {
  const { gateway: service, creds, releases } = s;
  const r = Router();
  const tag = 'cabinet gateway';
  const auth = (policy: Omit<LegPolicy, 'bodySerialFields'>) => [cabinet({ ...policy, bodySerialFields: CABINET_SERIAL_FIELDS })];
  const errors = (...extra: number[]) => [400, 401, 403, 404, 410, 422, 503, ...extra].sort((a, b) => a - b);

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/register',
      tag,
      summary:
        'Register: binds or checks the box, records software, answers the configuration block; provisions an unknown claimable serial into the unclaimed pool',
      auth: 'device',
      body: RegisterRequest,
      response: RegisterData,
      errors: errors(409),
    },
    auth({ leg: 'cabinet.register', fleetSecret: true, provision: 'agent', body: RegisterRequest }),
    async ({ body }, req, res) => sendOk(res, await service.register(cabinetOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/enrol',
      tag,
      summary: 'Enrol with the fleet secret (header `secret`): answers {keyId, deviceKey, machineCode} once',
      auth: 'device',
      body: EnrolRequest,
      response: EnrolData,
      errors: errors(409, 428, 429),
    },
    auth({ leg: 'cabinet.enrol', fleetSecret: true, enrol: true, body: EnrolRequest }),
    async ({ body }, req, res) => {
      const caller = cabinetOf(req);
      if (caller.via === 'device-key')
        throw new AppError('conflict', 'Cabinet is already enrolled: a second enrolment for one identity needs an identity reset');
      const enrolled = await creds.enrol(
        { id: caller.machineId, machine_no: caller.machineNo, operator_id: caller.operatorId, retired_at: null },
        body.deviceId ?? null,
      );
      // A new credential stream starts with a fresh witness.
      res.setHeader(DEVICE_WITNESS_HEADER, s.devices.witness.mint(caller.machineId));
      sendOk(res, enrolled);
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/heartbeat',
      tag,
      summary: 'Heartbeat: marks the machine online; records agentVersion, vmcVersion, capabilities and the deferral/blocked reports',
      auth: 'device',
      body: HeartbeatRequest,
      response: HeartbeatData,
      errors: errors(),
    },
    [cabinet(HEARTBEAT)],
    async ({ body }, req, res) => sendOk(res, await service.heartbeat(cabinetOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/config',
      tag,
      summary: 'The configuration block',
      auth: 'device',
      query: SerialQuery,
      response: ConfigBlock,
      errors: errors(),
    },
    auth({ leg: 'cabinet.config', fleetSecret: true, query: SerialQuery }),
    async (_input, req, res) => {
      const caller = cabinetOf(req);
      sendOk(res, await service.configFor(caller.machineId, caller.machineNo));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/goods',
      tag,
      summary: 'Planogram: SKUs, prices, stock, faulted lanes',
      auth: 'device',
      query: GoodsQuery,
      response: GoodsData,
      errors: errors(),
    },
    auth({ leg: 'cabinet.goods', fleetSecret: true, query: GoodsQuery }),
    async (_input, req, res) => sendOk(res, await service.goods(cabinetOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/createOrder',
      tag,
      summary: "Open a walk-up order on the machine's operator (paid, awaiting its vend)",
      auth: 'device',
      body: CreateOrderRequest,
      response: CreateOrderData,
      errors: errors(409),
    },
    auth({ leg: 'cabinet.createOrder', fleetSecret: true, body: CreateOrderRequest }),
    async ({ body }, req, res) => sendOk(res, await s.sales.openWalkup(cabinetOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/report',
      tag,
      summary:
        'Dispense report: exactly once per dispenseId; completes a remote drop (commandId) or settles a walk-up order (orderNumber); accepted for a retired machine',
      auth: 'device',
      body: ReportRequest,
      response: ReportData,
      errors: [400, 401, 403, 404, 409, 422],
    },
    auth({ leg: 'cabinet.report', fleetSecret: true, allowRetired: true, body: ReportRequest }),
    async ({ body }, req, res) => sendOk(res, await s.reports.report(cabinetOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/pending',
      tag,
      summary:
        'Pending remote dispense commands, oldest first. `wait` (0-25 s): with nothing pending, hold the answer until a command is enqueued or the wait is over (long poll)',
      auth: 'device',
      query: PendingQuery,
      response: PendingData,
      errors: errors(),
    },
    [cabinet(PENDING)],
    async ({ query: { wait } }, req, res) => answerPending(s.pendingPoll, cabinetOf(req).machineId, wait, res),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/upgrade',
      tag,
      summary:
        'The upgrade offer for this cabinet, or nothing (data: null): the artifact for its architecture; without agentVersion or arch the last reported one stands in',
      auth: 'device',
      query: UpgradeQuery,
      response: UpgradeData,
      errors: errors(),
    },
    auth({ leg: 'cabinet.upgrade', fleetSecret: false, query: UpgradeQuery }),
    async ({ query }, req, res) => sendOk(res, await releases.offerForCabinet(cabinetOf(req).machineId, query.agentVersion, query.arch)),
  );

  return r;
}
