import { Router } from 'express';
import type { RouteKit } from '../../http/route.ts';
import { renderReferenceList, type ReferenceDoc } from './docs-page.ts';
import { createDocsUi, DOCS_CSP, PAGE_CSS } from './docs-ui.ts';

/**
 * The OpenAPI document and the interactive reference (Swagger UI, served from its npm package),
 * rendered from every route's declaration. `presetApiKey` (the composition root passes alice's public
 * sandbox key in sandbox mode, never in production) makes "Try it out" work at once.
 */
export function metaRoutes({ docs }: RouteKit, presetApiKey: string | null): Router {
  const r = Router();
  const ui = createDocsUi();
  const sandbox = presetApiKey !== null;
  // Built on the first request, when every router has declared its routes; they never change after.
  let doc: Record<string, unknown> | null = null;
  const document = () => (doc ??= docs.document());
  let page: string | null = null;
  const initScript = ui.initScript(presetApiKey);

  r.get('/openapi.json', (_req, res) => {
    res.json(document());
  });
  r.get('/docs', (_req, res) => {
    page ??= ui.page(String((document()['info'] as { title?: unknown }).title), {
      sandbox,
      fallback: renderReferenceList(document() as unknown as ReferenceDoc),
    });
    res.set({ 'Content-Security-Policy': DOCS_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache' });
    res.type('html').send(page);
  });
  r.get('/docs/init.js', (_req, res) => {
    res.set({ 'Content-Security-Policy': DOCS_CSP, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    res.type('text/javascript').send(initScript);
  });
  r.get('/docs/page.css', (_req, res) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    res.type('text/css').send(PAGE_CSS);
  });
  r.get(`${ui.assetBase}/:file`, (req, res, next) => {
    res.set('Content-Security-Policy', DOCS_CSP);
    if (!ui.sendAsset(res, req.params.file)) next();
  });
  return r;
}
