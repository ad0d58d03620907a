import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type { ApiDocs, RouteDoc } from './api-docs.ts';
import type { Scope } from './scopes.ts';
import { parseInput } from './validate.ts';
import { openToGroupSessions } from './authenticate.ts';

/** What a schema parses to; `undefined` where the route declares none. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed input a typed handler receives: params, query and body, each from the schema its doc declares. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

export type RouteHandler<P, Q, B> = (input: RouteInput<P, Q, B>, req: Request, res: Response) => Promise<void> | void;

/** What every route factory gets besides its services: the API document and the operator guard chains. */
export interface RouteKit {
  docs: ApiDocs;
  /** Operator routes: who is calling (401), their hourly budget (429), their scopes (403). */
  guard(...scopes: Scope[]): RequestHandler[];
  /** Admin-only routes: authenticated, budgeted, and admin. */
  adminGuard(): RequestHandler[];
}

/**
 * Registers a route and its documentation in one statement, so the OpenAPI document cannot drift
 * from what is served. After the guards (authentication and the like answer first: 401 before 400),
 * the params, query and body are parsed with the schemas the doc declares — wrong types 422, missing
 * or out-of-rule values 400 — and the handler receives them typed. Handlers hold no parsing.
 * An absent body is parsed as `{}`, so a body of optional fields may be left out.
 */
export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  router: Router,
  docs: ApiDocs,
  doc: RouteDoc & { params?: P; query?: Q; body?: B },
  guards: readonly RequestHandler[],
  handler: RouteHandler<Parsed<P>, Parsed<Q>, Parsed<B>>,
): void {
  docs.add(doc);
  const { params, query, body } = doc;
  const open = doc.groupSessions ? [openToGroupSessions] : [];
  router[doc.method](doc.path, ...open, ...guards, async (req: Request, res: Response) => {
    const input = {
      params: params ? parseInput(params, req.params, 'params') : undefined,
      query: query ? parseInput(query, req.query, 'query') : undefined,
      body: body ? parseInput(body, req.body ?? {}, 'body') : undefined,
    } as RouteInput<Parsed<P>, Parsed<Q>, Parsed<B>>;
    await handler(input, req, res);
  });
}
