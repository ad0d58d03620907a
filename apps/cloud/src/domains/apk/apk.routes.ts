import { Router } from 'express';
import {
  AdLoopData,
  ApkCreateOrderRequest,
  ApkEquipmentData,
  ApkEquipmentRequest,
  ApkSerialCarrier,
  ApkUpRequest,
  CreateOrderData,
  SaveAdRecordData,
  SaveAdRecordRequest,
  SoftwareData,
  ValidVmcVersionRequest,
} from '@vend/protocol';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { createAppStore } from '../../repos.ts';
import { DeviceKeyVerifier } from '../device-credentials/key-verifier.ts';
import { EnrolmentService } from '../device-credentials/enrolment.service.ts';
import { cabinetAuth, cabinetOf, type LegPolicy } from '../gateway/device-auth.ts';
import { GatewayService } from '../gateway/gateway.service.ts';
import { ApkService } from './apk.service.ts';

const APK_SERIAL_FIELDS = ['equipmentNo', 'serialNumber', 'machineNo'] as const;
const SerialQuery = ApkSerialCarrier.pick({ equipmentNo: true });

/**
 * Family-A routes (spec 2 §4.2) for the Android vending app. Same credentials as `/cabinet` (the
 * fleet secret in header `secret`, or a device key), same envelope; the serial may also come as
 * body `machineNo`. As on `/cabinet`, `auth` judges each leg's body or query before anything is
 * looked up by serial or written (a refused first contact provisions nothing).
 */
export function apkRoutes(ctx: AppContext): Router {
  const credentialDeps = { store: createAppStore(ctx.database), clock: ctx.clock, audit: ctx.audit, devices: ctx.devices };
  const keys = new DeviceKeyVerifier(credentialDeps);
  const gateway = new GatewayService(ctx, new EnrolmentService(credentialDeps));
  const service = new ApkService(ctx, gateway);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'family-A cabinet';
  const auth = (policy: Omit<LegPolicy, 'bodySerialFields' | 'fleetSecret'>) =>
    cabinetAuth(keys, gateway, ctx.config.fleetSecret, { ...policy, fleetSecret: true, bodySerialFields: APK_SERIAL_FIELDS });
  const errors = [400, 401, 403, 404, 410, 422, 503];

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/apk/getEquipment',
      tag,
      summary: 'First contact: auto-provisions an unseen claimable board into the unclaimed pool (fully stocked); answers configuration and goods',
      auth: 'device',
      body: ApkEquipmentRequest,
      response: ApkEquipmentData,
      errors,
    },
    auth({ leg: 'apk.getEquipment', provision: 'apk', body: ApkEquipmentRequest }),
    async (req, res) => {
      const body = parseInput(ApkEquipmentRequest, req.body ?? {}, 'body');
      sendOk(res, await service.equipment(cabinetOf(req), { apkVersion: body.apkVersion, vmcVersion: body.vmcVersion }));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/apk/createOrder',
      tag,
      summary:
        "The cabinet records a sale it has vended, on the machine's operator: family A has no dispense report, so the order is shipped and the stock taken at once",
      auth: 'device',
      body: ApkCreateOrderRequest,
      response: CreateOrderData,
      errors: [...errors, 409],
    },
    auth({ leg: 'apk.createOrder', body: ApkCreateOrderRequest }),
    async (req, res) => {
      const body = parseInput(ApkCreateOrderRequest, req.body ?? {}, 'body');
      sendOk(res, await gateway.createOrder(cabinetOf(req), body, { vended: true }));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/apk/getAd',
      tag,
      summary: 'The attract loop (house content until campaigns are assembled)',
      auth: 'device',
      query: SerialQuery,
      response: AdLoopData,
      errors,
    },
    auth({ leg: 'apk.getAd', query: SerialQuery }),
    (req, res) => {
      parseInput(SerialQuery, req.query, 'query');
      sendOk(res, service.adLoop(cabinetOf(req)));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/apk/saveAdRecord',
      tag,
      summary: 'Proof of play: a single record or {records: [...]}',
      auth: 'device',
      body: SaveAdRecordRequest,
      response: SaveAdRecordData,
      errors,
    },
    auth({ leg: 'apk.saveAdRecord', body: SaveAdRecordRequest }),
    async (req, res) => {
      const body = parseInput(SaveAdRecordRequest, req.body ?? {}, 'body');
      const records = 'records' in body ? body.records : [body];
      sendOk(res, await service.savePlays(cabinetOf(req), records));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    { method: 'post', path: '/apk/apkUp', tag, summary: 'Reports the app version', auth: 'device', body: ApkUpRequest, response: SoftwareData, errors },
    auth({ leg: 'apk.apkUp', body: ApkUpRequest }),
    async (req, res) => {
      const body = parseInput(ApkUpRequest, req.body ?? {}, 'body');
      const apkVersion = body.apkVersion ?? body.version;
      if (apkVersion === undefined) throw badRequest('apkVersion is required');
      sendOk(res, await gateway.recordSoftware(cabinetOf(req), { apkVersion }));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/apk/validVmcVersion',
      tag,
      summary: 'Reports the controller firmware version',
      auth: 'device',
      body: ValidVmcVersionRequest,
      response: SoftwareData,
      errors,
    },
    auth({ leg: 'apk.validVmcVersion', body: ValidVmcVersionRequest }),
    async (req, res) => {
      const body = parseInput(ValidVmcVersionRequest, req.body ?? {}, 'body');
      const vmcVersion = body.vmcVersion ?? body.version;
      if (vmcVersion === undefined) throw badRequest('vmcVersion is required');
      sendOk(res, await gateway.recordSoftware(cabinetOf(req), { vmcVersion }));
    },
  );

  return r;
}
