import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { TaxService } from './tax.service.ts';
import {
  BlockedPage,
  BlockedQuery,
  RemitBody,
  Remittance,
  RemittanceListQuery,
  RemittancePage,
  Schedule,
  ScheduleBody,
  ScheduleListQuery,
  SchedulePage,
} from './tax.schemas.ts';

/** Sales tax (spec 1 §4.8): reads need orders:read, writes orders:write (tax is part of the sales books). */
export function taxRoutes(kit: RouteKit, tax: TaxService): Router {
  const r = Router();
  const tag = 'finance';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/tax/schedules',
      tag,
      summary: 'The tax schedule, oldest effective date first: the rate stamped on sales of machines without their own salesTaxRate',
      auth: 'operator',
      scopes: ['orders:read'],
      query: ScheduleListQuery,
      response: SchedulePage,
    },
    async ({ query }, req, res) => sendOk(res, await tax.schedules(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/tax/schedules',
      tag,
      summary:
        'Add a schedule row {bps, effectiveAt}: stamps sales made from that date on; sales already stamped are never repriced (409: a row for that date exists)',
      auth: 'operator',
      scopes: ['orders:write'],
      body: ScheduleBody,
      response: Schedule,
      errors: [409],
    },
    async ({ body }, req, res) => sendOk(res, await tax.addSchedule(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/tax/remittances',
      tag,
      summary: 'Periods marked remitted, newest first, with the tax computed when each was marked',
      auth: 'operator',
      scopes: ['orders:read'],
      query: RemittanceListQuery,
      response: RemittancePage,
    },
    async ({ query }, req, res) => sendOk(res, await tax.remittances(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/tax/remittances',
      tag,
      summary:
        'Mark an ended period (YYYY-MM, UTC) remitted: the server computes its tax from the orders now, and the period closes to restatement (400: not ended; 409: already remitted)',
      auth: 'operator',
      scopes: ['orders:write'],
      body: RemitBody,
      response: Remittance,
      errors: [409],
    },
    async ({ body }, req, res) => sendOk(res, await tax.remit(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/tax/restatements-blocked',
      tag,
      summary: 'Closed periods a machine-rate change could not restate, newest first (filter machineNo)',
      auth: 'operator',
      scopes: ['orders:read'],
      query: BlockedQuery,
      response: BlockedPage,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await tax.blocked(principalOf(req), query)),
  );

  return r;
}
