import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { AccountsService } from './accounts.service.ts';
import { AccountData, CreateAccountBody } from './accounts.schemas.ts';

/** Operator accounts (spec 1 §4.2): created by reseller/admin credentials holding `accounts:admin`. */
export function accountsRoutes(ctx: AppContext): Router {
  const service = new AccountsService(ctx);
  const r = Router();
  defineLegacyRoute(
    r,
    ctx.docs,
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
    ...guard(ctx, 'accounts:admin'),
    async (req, res) => {
      const body = parseInput(CreateAccountBody, req.body, 'body');
      res.set('Cache-Control', 'no-store');
      sendOk(res, await service.create(principalOf(req), body));
    },
  );
  return r;
}
