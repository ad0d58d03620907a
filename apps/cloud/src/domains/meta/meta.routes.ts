import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { renderDocsPage } from './docs-page.ts';

/** The OpenAPI document and the human docs page, rendered from every route's declaration. */
export function metaRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/openapi.json', (_req, res) => {
    res.json(ctx.docs.document());
  });
  r.get('/docs', (_req, res) => {
    res.type('html').send(renderDocsPage(ctx.docs.document() as Parameters<typeof renderDocsPage>[0]));
  });
  return r;
}
