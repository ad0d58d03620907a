import type { RequestHandler } from 'express';
import { authenticate, requireAdmin, requireScope } from './authenticate.ts';
import type { Authenticator } from './principal.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Scope } from './scopes.ts';

/** What the guard chains need: who is calling, and their hourly budget. */
export interface GuardDeps {
  auth: Authenticator;
  rateLimiter: Pick<RateLimiter, 'middleware'>;
}

/** The chain every operator route starts with: who is calling (401), their hourly budget (429), their scopes (403). */
export function guard(deps: GuardDeps, ...scopes: Scope[]): RequestHandler[] {
  const chain = [authenticate(deps.auth), deps.rateLimiter.middleware()];
  if (scopes.length) chain.push(requireScope(...scopes));
  return chain;
}

/** Admin-only routes: authenticated, budgeted, and admin. */
export function adminGuard(deps: GuardDeps): RequestHandler[] {
  return [authenticate(deps.auth), deps.rateLimiter.middleware(), requireAdmin];
}
