import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { DexService } from './dex.service.ts';
import { DexImportBody, DexParams, DexQuery, DexReconciliation } from './dex.schemas.ts';
import { sendOk } from '../../http/envelope.ts';

/** DEX/EVA-DTS audit export (docs/dex.md). */
export function dexRoutes(kit: RouteKit, dex: DexService): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/dex',
      tag: 'machines',
      summary:
        "The machine's audit data for a period as an EVA-DTS 6.1 DEX file (CR LF lines, G85 CRC): VA1/VA3 totals, CA2 cash, DA2 cashless, PA1/PA2 per selection, EA2 failed vends",
      auth: 'operator',
      groupSessions: true,
      scopes: ['orders:read'],
      params: DexParams,
      query: DexQuery,
      contentType: 'text/plain',
      errors: [404],
    },
    async ({ params, query }, req, res) => {
      const file = await dex.export(principalOf(req), params.machineNo, query);
      res.status(200).type('text/plain; charset=latin1').setHeader('content-disposition', `attachment; filename="${file.fileName}"`);
      res.send(Buffer.from(file.text, 'latin1'));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/dex',
      tag: 'machines',
      summary:
        "Reconcile a DEX file read from the machine's board against the cloud's sales: per selection, the board's vend count against the units recorded, with the over/short (writes nothing)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['orders:read'],
      params: DexParams,
      body: DexImportBody,
      response: DexReconciliation,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await dex.reconcile(principalOf(req), params.machineNo, body)),
  );
  return r;
}
