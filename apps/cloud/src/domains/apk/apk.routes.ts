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
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { cabinetOf, type CabinetGuard, type LegPolicy } from '../gateway/device-auth.ts';
import type { GatewayService } from '../gateway/gateway.service.ts';
import type { SalesService } from '../orders/sales.service.ts';
import type { ApkService } from './apk.service.ts';

const APK_SERIAL_FIELDS = ['equipmentNo', 'serialNumber', 'machineNo'] as const;
const SerialQuery = ApkSerialCarrier.pick({ equipmentNo: true });

/**
 * Family-A routes (spec 2 §4.2) for the Android vending app. Same credentials as `/cabinet` (the
 * fleet secret in header `secret`, or a device key), same envelope; the serial may also come as
 * body `machineNo`. As on `/cabinet`, `auth` judges each leg's body or query before anything is
 * looked up by serial or written (a refused first contact provisions nothing).
 */
export function apkRoutes(kit: RouteKit, cabinet: CabinetGuard, service: ApkService, gateway: GatewayService, sales: SalesService): Router {
  const r = Router();
  const tag = 'family-A cabinet';
  const auth = (policy: Omit<LegPolicy, 'bodySerialFields' | 'fleetSecret'>) => [
    cabinet({ ...policy, fleetSecret: true, bodySerialFields: APK_SERIAL_FIELDS }),
  ];
  const errors = [400, 401, 403, 404, 410, 422, 503];

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await service.equipment(cabinetOf(req), { apkVersion: body.apkVersion, vmcVersion: body.vmcVersion })),
  );

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await sales.openWalkup(cabinetOf(req), body, { vended: true })),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/apk/getAd',
      tag,
      summary:
        'The attract loop of the machine, assembled on each call: direct-sold campaigns in flight (by weight), approved screensavers, programmatic fill (at most 3), house content padding the tail',
      auth: 'device',
      query: SerialQuery,
      response: AdLoopData,
      errors,
    },
    auth({ leg: 'apk.getAd', query: SerialQuery }),
    async (_input, req, res) => sendOk(res, await service.adLoop(cabinetOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/apk/saveAdRecord',
      tag,
      summary: 'Proof of play: a single record or {records: [...]}; a retried showing counts once; a programmatic showing fires its proof-of-play URL once',
      auth: 'device',
      body: SaveAdRecordRequest,
      response: SaveAdRecordData,
      errors,
    },
    auth({ leg: 'apk.saveAdRecord', body: SaveAdRecordRequest }),
    async ({ body }, req, res) => {
      const records = 'records' in body ? body.records : [body];
      sendOk(res, await service.savePlays(cabinetOf(req), records));
    },
  );

  defineRoute(
    r,
    kit,
    { method: 'post', path: '/apk/apkUp', tag, summary: 'Reports the app version', auth: 'device', body: ApkUpRequest, response: SoftwareData, errors },
    auth({ leg: 'apk.apkUp', body: ApkUpRequest }),
    async ({ body }, req, res) => {
      const apkVersion = body.apkVersion ?? body.version;
      if (apkVersion === undefined) throw badRequest('apkVersion is required');
      sendOk(res, await gateway.recordSoftware(cabinetOf(req), { apkVersion }));
    },
  );

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => {
      const vmcVersion = body.vmcVersion ?? body.version;
      if (vmcVersion === undefined) throw badRequest('vmcVersion is required');
      sendOk(res, await gateway.recordSoftware(cabinetOf(req), { vmcVersion }));
    },
  );

  return r;
}
