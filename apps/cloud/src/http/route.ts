import type { RequestHandler, Router } from 'express';
import type { ApiDocs, RouteDoc } from './api-docs.ts';

/**
 * Registers a route and its documentation in one statement, so the OpenAPI document cannot drift
 * from what is served.
 */
export function defineRoute(router: Router, docs: ApiDocs, doc: RouteDoc, ...handlers: RequestHandler[]): void {
  docs.add(doc);
  router[doc.method](doc.path, ...handlers);
}
