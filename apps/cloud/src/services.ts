import type { AppContext } from './context.ts';
import { adminGuard, guard } from './http/guard.ts';
import type { RouteKit } from './http/route.ts';
import { createAppStore, type AppStore } from './repos.ts';
import { sandboxSeedSteps } from './bootstrap.ts';
import { AccountsService } from './domains/accounts/accounts.service.ts';
import { AuthService } from './domains/auth/auth.service.ts';
import { IdentityTokenVerifier, IdpBearerVerifier } from './domains/auth/id-token.ts';
import { OAuthService } from './domains/auth/oauth.service.ts';
import { SignInService } from './domains/auth/signin.service.ts';
import { InventoryService } from './domains/inventory/inventory.service.ts';
import { OperatorViewService } from './domains/operator-view/operator-view.service.ts';
import { SandboxService } from './domains/sandbox/sandbox.service.ts';
import { MachinesService } from './domains/machines/machines.service.ts';
import { CredentialAdminService } from './domains/device-credentials/credential-admin.service.ts';
import { CredentialFleetService } from './domains/device-credentials/credential-fleet.service.ts';
import { EnrolmentModesService } from './domains/device-credentials/enrolment-modes.service.ts';
import { EnrolmentService } from './domains/device-credentials/enrolment.service.ts';
import { FactoryBuildsService } from './domains/device-credentials/factory-builds.service.ts';
import { DeviceKeyVerifier } from './domains/device-credentials/key-verifier.ts';
import { AgentFleetService } from './domains/releases/agent-fleet.service.ts';
import { ReleaseRegistryService } from './domains/releases/release-registry.service.ts';
import { RolloutService } from './domains/releases/rollout.service.ts';
import { UpgradeOffersService } from './domains/releases/upgrade-offers.service.ts';

/**
 * Every service of the cloud, each built exactly once (in `createServices`). Route factories and
 * background loops receive the ones they use; no route or service constructs another service.
 */
export interface Services {
  store: AppStore;
  /** The API document and the operator guard chains, for the route factories. */
  routes: RouteKit;
  /** Operator authentication (API keys, bearer tokens, IdP JWTs) and who-am-I; the guards in `routes` use it. */
  auth: AuthService;
  oauth: OAuthService;
  signIn: SignInService;
  accounts: AccountsService;
  machines: MachinesService;
  operatorView: OperatorViewService;
  sandbox: SandboxService;
  /** Device credentials: the gateway's per-request key check, enrolment, administration, modes, views, factory builds. */
  deviceKeys: DeviceKeyVerifier;
  enrolment: EnrolmentService;
  credentialAdmin: CredentialAdminService;
  enrolmentModes: EnrolmentModesService;
  credentialFleet: CredentialFleetService;
  factoryBuilds: FactoryBuildsService;
  /** Agent releases: the registry, the rollout and pins, each cabinet's offer, the fleet view and progress. */
  releaseRegistry: ReleaseRegistryService;
  rollouts: RolloutService;
  upgradeOffers: UpgradeOffersService;
  agentFleet: AgentFleetService;
}

/** The composition root: repositories, clock and collaborators go in as each service's named `Deps`. */
export function createServices(ctx: AppContext): Services {
  const store = createAppStore(ctx.database);
  const { clock, audit, config, devices, rateLimiter, sealer } = ctx;
  const jwt = config.idp ? new IdpBearerVerifier(new IdentityTokenVerifier(config.idp, clock), store.repos.auth, config.rateLimitPerHour) : null;
  const auth = new AuthService({ store, clock, config, jwt });
  // Transitional: routers not yet on RouteKit authenticate through the context (context.ts).
  ctx.auth = auth;
  const guards = { auth, rateLimiter };
  const routes: RouteKit = {
    docs: ctx.docs,
    guard: (...scopes) => guard(guards, ...scopes),
    adminGuard: () => adminGuard(guards),
  };
  const machines = new MachinesService({ store, clock, audit, geocoder: ctx.geocoder, config });
  // The inventory domain's service, on its current constructor, for the operator view's stock rollups.
  const inventory = new InventoryService(ctx.database.db, ctx.database.dialect, audit);
  const social = config.social ? new IdentityTokenVerifier(config.social, clock) : null;
  const enrolmentModes = new EnrolmentModesService({ store, clock, audit });
  const upgradeOffers = new UpgradeOffersService({ store });
  return {
    store,
    routes,
    auth,
    oauth: new OAuthService({ store, clock, audit, rateLimiter, config }),
    signIn: new SignInService({ store, clock, audit, rateLimiter, sealer, config, social }),
    accounts: new AccountsService({ store, clock, audit, config }),
    machines,
    operatorView: new OperatorViewService({ store, clock, machines, inventory, config }),
    sandbox: new SandboxService({
      store,
      clock,
      audit,
      sealer,
      config,
      database: ctx.database,
      redis: ctx.redis,
      startedAt: ctx.startedAt,
      metrics: ctx.metrics,
      seedSteps: sandboxSeedSteps(ctx.database.dialect),
    }),
    deviceKeys: new DeviceKeyVerifier({ store, clock, audit, devices }),
    enrolment: new EnrolmentService({ store, clock, audit, devices }),
    credentialAdmin: new CredentialAdminService({ store, clock, audit, devices }),
    enrolmentModes,
    credentialFleet: new CredentialFleetService({ store, clock, modes: enrolmentModes }),
    factoryBuilds: new FactoryBuildsService({ store, clock, audit }),
    releaseRegistry: new ReleaseRegistryService({ store, clock, audit, config }),
    rollouts: new RolloutService({ store, clock, audit, offers: upgradeOffers }),
    upgradeOffers,
    agentFleet: new AgentFleetService({ store, clock, offers: upgradeOffers }),
  };
}
