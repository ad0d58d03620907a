import type { AppContext } from './context.ts';
import { adminGuard, guard } from './http/guard.ts';
import type { RouteKit } from './http/route.ts';
import { createAppStore, type AppStore } from './repos.ts';
import { MachinesService } from './domains/machines/machines.service.ts';

/**
 * Every service of the cloud, each built exactly once (in `createServices`). Route factories and
 * background loops receive the ones they use; no route or service constructs another service.
 */
export interface Services {
  store: AppStore;
  /** The API document and the operator guard chains, for the route factories. */
  routes: RouteKit;
  machines: MachinesService;
}

/** The composition root: repositories, clock and collaborators go in as each service's named `Deps`. */
export function createServices(ctx: AppContext): Services {
  const store = createAppStore(ctx.database);
  const { clock, audit, config } = ctx;
  const routes: RouteKit = {
    docs: ctx.docs,
    guard: (...scopes) => guard(ctx, ...scopes),
    adminGuard: () => adminGuard(ctx),
  };
  const machines = new MachinesService({ store, clock, audit, geocoder: ctx.geocoder, config });
  return { store, routes, machines };
}
