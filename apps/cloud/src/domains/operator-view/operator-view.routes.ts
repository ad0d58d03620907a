import { Router, type Request } from 'express';
import type { AppContext } from '../../context.ts';
import type { MachinesService } from '../machines/machines.service.ts';
import { sendOk } from '../../http/envelope.ts';
import { guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { MachineNoParams, OperatorView, QrQuery } from './operator-view.schemas.ts';
import { OperatorViewService } from './operator-view.service.ts';

/** The address people reach this service at: configured, else the request's own origin. */
function baseUrlOf(ctx: AppContext, req: Request): string {
  return ctx.config.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

export function operatorViewRoutes(ctx: AppContext, machines: MachinesService): Router {
  const service = new OperatorViewService(ctx, machines);
  const r = Router();
  const docs = ctx.docs;

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/operator-view',
      tag: 'machines',
      summary: 'Status, sales, aisle rollups and money of one machine',
      auth: 'operator',
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: OperatorView,
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.view(principalOf(req), machineNo));
    },
  );

  for (const kind of ['operator-qr', 'advertise-qr'] as const) {
    defineLegacyRoute(
      r,
      docs,
      {
        method: 'get',
        path: `/api/v1/machines/:machineNo/${kind}`,
        tag: 'machines',
        summary: kind === 'operator-qr' ? 'PNG QR code of the hosted operator view' : 'PNG QR code of the buyer chat address with a stable qrId',
        auth: 'operator',
        scopes: ['machines:read'],
        params: MachineNoParams,
        query: QrQuery,
        contentType: 'image/png',
      },
      ...guard(ctx, 'machines:read'),
      async (req, res) => {
        const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
        const { size } = parseInput(QrQuery, req.query, 'query');
        const p = principalOf(req);
        const base = baseUrlOf(ctx, req);
        const qr = kind === 'operator-qr' ? await service.operatorQr(p, machineNo, base, size) : await service.advertiseQr(p, machineNo, base, size);
        res.status(200).type('image/png').setHeader('cache-control', 'private, max-age=300');
        res.send(qr.png);
      },
    );
  }
  return r;
}
