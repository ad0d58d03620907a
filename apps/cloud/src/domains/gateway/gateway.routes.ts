import { Router } from 'express';
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
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { createAppStore } from '../../repos.ts';
import { DeviceKeyVerifier } from '../device-credentials/key-verifier.ts';
import { EnrolmentService } from '../device-credentials/enrolment.service.ts';
import { cabinetAuth, cabinetOf, type LegPolicy } from './device-auth.ts';
import { GatewayService } from './gateway.service.ts';
import { UpgradeOffersService } from '../releases/upgrade-offers.service.ts';
import { MachineNoParams, SettingsBody, SettingsData } from './gateway.schemas.ts';

const CABINET_SERIAL_FIELDS = ['equipmentNo', 'serialNumber'] as const;
const GoodsQuery = SerialCarrier.pick({ equipmentNo: true });
const SerialQuery = SerialCarrier.pick({ equipmentNo: true });

/**
 * The cabinet gateway (spec 2 §4.1). Every response is the `{code, message, data}` envelope; the
 * `data` schemas are the ones in `@vend/protocol` the agent parses with. `cabinetAuth` resolves the
 * cabinet from its credential and judges the leg's body and query (the schemas handed to `auth`)
 * before anything is looked up by serial or written; handlers parse (it cannot fail by then) and hand
 * to the service.
 */
export function gatewayRoutes(ctx: AppContext): Router {
  const credentialDeps = { store: createAppStore(ctx.database), clock: ctx.clock, audit: ctx.audit, devices: ctx.devices };
  const keys = new DeviceKeyVerifier(credentialDeps);
  const creds = new EnrolmentService(credentialDeps);
  const service = new GatewayService(ctx, creds);
  const releases = new UpgradeOffersService(credentialDeps);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'cabinet gateway';
  const auth = (policy: Omit<LegPolicy, 'bodySerialFields'>) =>
    cabinetAuth(keys, service, ctx.config.fleetSecret, { ...policy, bodySerialFields: CABINET_SERIAL_FIELDS });
  const errors = (...extra: number[]) => [400, 401, 403, 404, 410, 422, 503, ...extra].sort((a, b) => a - b);

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      const body = parseInput(RegisterRequest, req.body ?? {}, 'body');
      sendOk(res, await service.register(cabinetOf(req), body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      const body = parseInput(EnrolRequest, req.body ?? {}, 'body');
      const caller = cabinetOf(req);
      if (caller.via === 'device-key')
        throw new AppError('conflict', 'Cabinet is already enrolled: a second enrolment for one identity needs an identity reset');
      const enrolled = await creds.enrol(
        { id: caller.machineId, machine_no: caller.machineNo, operator_id: caller.operatorId, retired_at: null },
        body.deviceId ?? null,
      );
      // A new credential stream starts with a fresh witness.
      res.setHeader(DEVICE_WITNESS_HEADER, ctx.devices.witness.mint(caller.machineId));
      sendOk(res, enrolled);
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    auth({ leg: 'cabinet.heartbeat', fleetSecret: false, body: HeartbeatRequest }),
    async (req, res) => {
      const body = parseInput(HeartbeatRequest, req.body ?? {}, 'body');
      sendOk(res, await service.heartbeat(cabinetOf(req), body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      parseInput(SerialQuery, req.query, 'query');
      const caller = cabinetOf(req);
      sendOk(res, await service.configFor(caller.machineId, caller.machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      parseInput(GoodsQuery, req.query, 'query');
      sendOk(res, await service.goods(cabinetOf(req)));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      const body = parseInput(CreateOrderRequest, req.body ?? {}, 'body');
      sendOk(res, await service.createOrder(cabinetOf(req), body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    async (req, res) => {
      const body = parseInput(ReportRequest, req.body ?? {}, 'body');
      sendOk(res, await service.report(cabinetOf(req), body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    auth({ leg: 'cabinet.pending', fleetSecret: false, query: PendingQuery }),
    async (req, res) => {
      const { wait } = parseInput(PendingQuery, req.query, 'query');
      if (!wait) {
        sendOk(res, await service.pending(cabinetOf(req)));
        return;
      }
      // a client that goes away mid-hold releases its place at once
      const gone = new AbortController();
      const onClose = () => gone.abort();
      res.once('close', onClose);
      try {
        const data = await service.pending(cabinetOf(req), { waitSeconds: wait, notifier: ctx.pendingNotifier, signal: gone.signal });
        if (!res.destroyed) sendOk(res, data);
      } finally {
        res.off('close', onClose);
      }
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/cabinet/upgrade',
      tag,
      summary: 'The upgrade offer for this cabinet, or nothing (data: null); without agentVersion the last reported version stands in',
      auth: 'device',
      query: UpgradeQuery,
      response: UpgradeData,
      errors: errors(),
    },
    auth({ leg: 'cabinet.upgrade', fleetSecret: false, query: UpgradeQuery }),
    async (req, res) => {
      const q = parseInput(UpgradeQuery, req.query, 'query');
      sendOk(res, await releases.offerForCabinet(cabinetOf(req).machineId, q.agentVersion));
    },
  );

  // Operator API: the per-machine configuration the cabinet receives.
  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/cabinet-settings',
      tag,
      summary: "A cabinet's stored settings and the configuration block it receives (owner or admin)",
      auth: 'operator',
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: SettingsData,
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.getSettings(principalOf(req), machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'put',
      path: '/api/v1/machines/:machineNo/cabinet-settings',
      tag,
      summary: 'Change configuration and per-machine feature settings (only sent fields; null restores the default)',
      auth: 'operator',
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: SettingsBody,
      response: SettingsData,
    },
    ...guard(ctx, 'machines:write'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.putSettings(principalOf(req), machineNo, parseInput(SettingsBody, req.body ?? {}, 'body')));
    },
  );

  return r;
}
