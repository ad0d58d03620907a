import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { DexService } from './dex.service.ts';
import { DexParams, DexQuery } from './dex.schemas.ts';

/** DEX/EVA-DTS audit export (docs/dex.md). */
export function dexRoutes({ docs, guard }: RouteKit, dex: DexService): Router {
  const r = Router();
  defineRoute(
    r,
    docs,
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
    guard('orders:read'),
    async ({ params, query }, req, res) => {
      const file = await dex.export(principalOf(req), params.machineNo, query);
      res.status(200).type('text/plain; charset=latin1').setHeader('content-disposition', `attachment; filename="${file.fileName}"`);
      res.send(Buffer.from(file.text, 'latin1'));
    },
  );
  return r;
}
