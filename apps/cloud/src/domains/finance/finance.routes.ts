import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { EntriesService } from './entries.service.ts';
import type { PayoutsService } from './payouts.service.ts';
import type { PnlService } from './pnl.service.ts';
import {
  BalanceQuery,
  BalanceSheet,
  CreateEntryBody,
  Entry,
  EntryListQuery,
  EntryPage,
  EntryParams,
  PayBody,
  PayoutsQuery,
  PayoutsView,
  Pnl,
  PnlQuery,
  ReverseEntryBody,
  StatementView,
} from './finance.schemas.ts';

/**
 * The operator's books (spec 1 §4.8): cost entries, P&L, host payouts, balance sheet. Spec 1 §5 has no
 * finance scope: reads need orders:read ("sales history and summaries"), writes orders:write.
 */
export function financeRoutes(kit: RouteKit, entries: EntriesService, pnl: PnlService, payouts: PayoutsService): Router {
  const r = Router();
  const tag = 'finance';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/finance/entries',
      tag,
      summary: 'Record a referral, payroll or expense amount for a day, for the business or against one machine or venue',
      auth: 'operator',
      scopes: ['orders:write'],
      body: CreateEntryBody,
      response: Entry,
    },
    async ({ body }, req, res) => sendOk(res, await entries.create(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/finance/entries',
      tag,
      summary: 'Referral, payroll and expense entries, newest day first (reversals included)',
      auth: 'operator',
      scopes: ['orders:read'],
      query: EntryListQuery,
      response: EntryPage,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await entries.list(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/finance/entries/:id',
      tag,
      summary: 'One entry, with the reversal that cancels it if any',
      auth: 'operator',
      scopes: ['orders:read'],
      params: EntryParams,
      response: Entry,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await entries.get(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/finance/entries/:id/reverse',
      tag,
      summary: 'Correct an entry: posts its reversing entry (the negated amount on the same day); once per entry',
      auth: 'operator',
      scopes: ['orders:write'],
      params: EntryParams,
      body: ReverseEntryBody,
      response: Entry,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await entries.reverse(principalOf(req), params.id, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/pnl',
      tag,
      summary:
        'Profit and loss over UTC days (both ends inclusive): gross, tax, net, fifoCogsCents, host share (hostLines), referrals, payroll, the 2% fee, expenses, operator net and the identity string',
      auth: 'operator',
      scopes: ['orders:read'],
      query: PnlQuery,
      response: Pnl,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await pnl.pnl(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/payouts',
      tag,
      summary: 'Host statements of one period, one per venue: a line per machine stay (vends, net sales in its accruing window, bps, share) and the total',
      auth: 'operator',
      scopes: ['orders:read'],
      query: PayoutsQuery,
      response: PayoutsView,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await payouts.statements(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/payouts',
      tag,
      summary: "Record a venue's statement for an ended period as paid: frozen from then on; once per venue and period",
      auth: 'operator',
      scopes: ['orders:write'],
      body: PayBody,
      response: StatementView,
      errors: [404, 409],
    },
    async ({ body }, req, res) => sendOk(res, await payouts.pay(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/balance-sheet',
      tag,
      summary: 'Balance sheet at the end of a UTC day: cash and FIFO inventory; tax, host commission and refunds owed; retained earnings',
      auth: 'operator',
      scopes: ['orders:read'],
      query: BalanceQuery,
      response: BalanceSheet,
    },
    async ({ query }, req, res) => sendOk(res, await pnl.balanceSheet(principalOf(req), query)),
  );
  return r;
}
