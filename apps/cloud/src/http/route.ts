import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type { ApiDocs, RouteDoc } from './api-docs.ts';
import { parseInput } from './validate.ts';
import { openToGroupSessions } from './authenticate.ts';

/** What a schema parses to (a parsed request, an answer's data): the one alias for it; `undefined` where the route declares none. */
export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed input a typed handler receives: params, query and body, each from the schema its doc declares. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

export type RouteHandler<P, Q, B> = (input: RouteInput<P, Q, B>, req: Request, res: Response) => Promise<void> | void;

/** What every route factory gets besides its services: the API document and the access chains. */
export interface RouteKit {
  docs: ApiDocs;
  /**
   * The access chain a route's doc calls for (`accessChain` in guard.ts): for `operator` routes, who is
   * calling (401), their hourly budget (429) and the doc's scopes (403); for `admin` routes the same with an
   * admin credential; nothing for the other auth kinds. `defineRoute(r, kit, doc, …)` applies it.
   */
  access(doc: RouteDoc): RequestHandler[];
}

/** A route's doc, typed by the schemas it declares. */
type TypedDoc<P, Q, B> = RouteDoc & { params?: P; query?: Q; body?: B };

/**
 * Registers a route and its documentation in one statement, so the OpenAPI document cannot drift
 * from what is served. Who may call it is declared once, in the doc (`auth`, `scopes` or
 * `scopeAlternatives`), and enforced from there: the access chain the doc calls for (`RouteKit.access`:
 * 401 → 429 → 403) runs first, then the route's own middleware (`use`: a device credential, a signature,
 * a body-dependent scope), then the params, query and body are parsed with the schemas the doc
 * declares — wrong types 422, missing or out-of-rule values 400 — and the handler receives them typed.
 * Handlers hold no parsing. An absent body is parsed as `{}`, so a body of optional fields may be left out.
 *
 * `device`, `signature` and `oauth-client` routes must name their check in `use` (the doc's auth kind
 * is a promise the route keeps itself); registering one without is refused at start-up.
 */
export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(router: Router, kit: RouteKit, doc: TypedDoc<P, Q, B>, handler: RouteHandler<Parsed<P>, Parsed<Q>, Parsed<B>>): void;
export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(router: Router, kit: RouteKit, doc: TypedDoc<P, Q, B>, use: readonly RequestHandler[], handler: RouteHandler<Parsed<P>, Parsed<Q>, Parsed<B>>): void;
export function defineRoute(
  router: Router,
  kit: RouteKit,
  doc: TypedDoc<z.ZodObject | undefined, z.ZodObject | undefined, z.ZodType | undefined>,
  ...rest: [RouteHandler<unknown, unknown, unknown>] | [readonly RequestHandler[], RouteHandler<unknown, unknown, unknown>]
): void {
  const [use, handler] = rest.length === 1 ? [[], rest[0]] : rest;
  if ((doc.auth === 'device' || doc.auth === 'signature' || doc.auth === 'oauth-client') && use.length === 0)
    throw new Error(`${doc.method} ${doc.path}: an '${doc.auth}' route names its credential check in \`use\``);
  const chain = [...kit.access(doc), ...use];
  kit.docs.add(doc);
  const { params, query, body } = doc;
  const open = doc.groupSessions ? [openToGroupSessions] : [];
  router[doc.method](doc.path, ...open, ...chain, async (req: Request, res: Response) => {
    const input = {
      params: params ? parseInput(params, req.params, 'params') : undefined,
      query: query ? parseInput(query, req.query, 'query') : undefined,
      body: body ? parseInput(body, req.body === undefined ? {} : req.body, 'body') : undefined,
    };
    await handler(input, req, res);
  });
}
