import { Router } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { AccountsService } from './accounts.service.ts';
import { AccountData, CreateAccountBody } from './accounts.schemas.ts';

/** Operator accounts (spec 1 §4.2): created by reseller/admin credentials holding `accounts:admin`. */
export function accountsRoutes(kit: RouteKit, accounts: AccountsService): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/accounts',
      tag: 'accounts',
      summary: 'Create an operator account; answers it with a standard API key shown this once',
      auth: 'operator',
      scopes: ['accounts:admin'],
      body: CreateAccountBody,
      response: AccountData,
      errors: [400, 401, 403, 409, 422, 429],
    },
    async ({ body }, req, res) => {
      res.set('Cache-Control', 'no-store');
      sendOk(res, await accounts.create(principalOf(req), body));
    },
  );
  return r;
}
