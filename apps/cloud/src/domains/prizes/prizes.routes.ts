import { Router } from 'express';
import { PrizeEventsData, PrizeEventsRequest, PrizeStateData, SerialCarrier } from '@vend/protocol';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { cabinetOf, type CabinetGuard } from '../gateway/device-auth.ts';
import type { PrizesService } from './prizes.service.ts';
import { PrizeMachineParams, PrizeMechanics, PrizesReport, PrizesReportQuery, PutPrizeMechanicsBody } from './prizes.schemas.ts';

/**
 * The prize game, operator side: a machine's mechanics (write machines:write, read machines:read, as
 * every machine setting) and the prizes report (orders:read: it shows sales and prize money).
 */
export function prizesRoutes(kit: RouteKit, prizes: PrizesService): Router {
  const r = Router();

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/prize-mechanics',
      tag: 'machines',
      summary: "The machine's prize mechanics (on/off, caps), monthly prize budget and what this period has spent of it",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      params: PrizeMachineParams,
      response: PrizeMechanics,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await prizes.settings(principalOf(req), params.machineNo)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/machines/:machineNo/prize-mechanics',
      tag: 'machines',
      summary:
        'Replace the prize settings: per mechanic (spinToWin, scratchCard, loyaltyStamp) enabled, maxWinsPerDay, maxPrizeValue; a monthlyBudget. A mechanic left out is off; the cabinet learns it on its next prize call',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: PrizeMachineParams,
      body: PutPrizeMechanicsBody,
      response: PrizeMechanics,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await prizes.putSettings(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/prizes/report',
      tag: 'finance',
      summary:
        'Prize game report over a period or from/to (UTC days): scans → entries → plays → wins with step conversion, gross revenue (machine sales), prize cost, budget use per machine and month',
      auth: 'operator',
      scopes: ['orders:read'],
      query: PrizesReportQuery,
      response: PrizesReport,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await prizes.report(principalOf(req), query)),
  );
  return r;
}

const StateQuery = SerialCarrier.pick({ equipmentNo: true });

/** The prize game, cabinet side: the device key only (a game is not a bootstrap or selling leg). */
export function prizesCabinetRoutes(kit: RouteKit, cabinet: CabinetGuard, prizes: PrizesService): Router {
  const r = Router();
  const tag = 'cabinet gateway';
  const errors = [400, 401, 403, 404, 410, 422, 503];
  const fields = ['equipmentNo', 'serialNumber'] as const;

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/prize-events',
      tag,
      summary:
        'Game events (scan, entry, play, win), at most 500: each counted once by eventId; events of a disabled mechanic and wins past a cap or the budget are refused and listed; answers the settings to follow',
      auth: 'device',
      body: PrizeEventsRequest,
      response: PrizeEventsData,
      errors,
    },
    [cabinet({ leg: 'cabinet.prizeEvents', fleetSecret: false, bodySerialFields: fields, body: PrizeEventsRequest })],
    async ({ body }, req, res) => sendOk(res, await prizes.recordEvents(cabinetOf(req), body.events)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/prize-mechanics',
      tag,
      summary: 'The prize settings the cabinet must follow now: each mechanic on/off, its caps and wins left today, the budget left this period',
      auth: 'device',
      query: StateQuery,
      response: PrizeStateData,
      errors,
    },
    [cabinet({ leg: 'cabinet.prizeMechanics', fleetSecret: false, bodySerialFields: fields, query: StateQuery })],
    async (_input, req, res) => sendOk(res, await prizes.cabinetState(cabinetOf(req))),
  );
  return r;
}
