import { Router } from 'express';
import type { RouteKit } from '../../http/route.ts';
import { renderDocsPage } from './docs-page.ts';

/** The OpenAPI document and the human docs page, rendered from every route's declaration. */
export function metaRoutes({ docs }: RouteKit): Router {
  const r = Router();
  r.get('/openapi.json', (_req, res) => {
    res.json(docs.document());
  });
  r.get('/docs', (_req, res) => {
    res.type('html').send(renderDocsPage(docs.document() as Parameters<typeof renderDocsPage>[0]));
  });
  return r;
}
