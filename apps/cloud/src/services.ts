import type { AppContext } from './context.ts';
import { adminGuard, guard } from './http/guard.ts';
import type { RouteKit } from './http/route.ts';
import { createAppStore, type AppStore } from './repos.ts';
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
  machines: MachinesService;
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
  const { clock, audit, config, devices } = ctx;
  const routes: RouteKit = {
    docs: ctx.docs,
    guard: (...scopes) => guard(ctx, ...scopes),
    adminGuard: () => adminGuard(ctx),
  };
  const machines = new MachinesService({ store, clock, audit, geocoder: ctx.geocoder, config });
  const enrolmentModes = new EnrolmentModesService({ store, clock, audit });
  const upgradeOffers = new UpgradeOffersService({ store });
  return {
    store,
    routes,
    machines,
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
