import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { authenticate, requireAdmin, requireScope } from './authenticate.ts';
import type { Scope } from './scopes.ts';

/** The chain every operator route starts with: who is calling (401), their hourly budget (429), their scopes (403). */
export function guard(ctx: Pick<AppContext, 'auth' | 'rateLimiter'>, ...scopes: Scope[]): RequestHandler[] {
  const chain = [authenticate(ctx.auth), ctx.rateLimiter.middleware()];
  if (scopes.length) chain.push(requireScope(...scopes));
  return chain;
}

/** Admin-only routes: authenticated, budgeted, and admin. */
export function adminGuard(ctx: Pick<AppContext, 'auth' | 'rateLimiter'>): RequestHandler[] {
  return [authenticate(ctx.auth), ctx.rateLimiter.middleware(), requireAdmin];
}
