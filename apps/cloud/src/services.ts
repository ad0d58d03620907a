import type { AppContext } from './context.ts';
import { adminGuard, guard } from './http/guard.ts';
import type { RouteKit } from './http/route.ts';
import { createAppStore, type AppStore } from './repos.ts';
import { Jobs } from './jobs/jobs.ts';
import { MachinesService } from './domains/machines/machines.service.ts';
import { CabinetSettingsService } from './domains/machines/cabinet-settings.service.ts';
import { OrdersService } from './domains/orders/orders.service.ts';
import { SalesService } from './domains/orders/sales.service.ts';
import { InventoryService } from './domains/inventory/inventory.service.ts';
import { CommandsService } from './domains/commands/commands.service.ts';
import { PaymentsService } from './domains/payments/payments.service.ts';
import { GatewayService } from './domains/gateway/gateway.service.ts';
import { DispenseReportsService } from './domains/gateway/dispense-reports.service.ts';
import { PendingPollService } from './domains/gateway/pending-poll.service.ts';
import { cabinetGuard, type CabinetGuard } from './domains/gateway/device-auth.ts';
import { ApkService } from './domains/apk/apk.service.ts';
import { DeviceCredentialsService } from './domains/device-credentials/device-credentials.service.ts';
import { ReleasesService } from './domains/releases/releases.service.ts';

/**
 * Every service of the cloud, each built exactly once (in `createServices`). Route factories and
 * background loops receive the ones they use; no route or service constructs another service.
 */
export interface Services {
  store: AppStore;
  /** The API document and the operator guard chains, for the route factories. */
  routes: RouteKit;
  machines: MachinesService;
  cabinetSettings: CabinetSettingsService;
  orders: OrdersService;
  sales: SalesService;
  inventory: InventoryService;
  commands: CommandsService;
  payments: PaymentsService;
  deviceCredentials: DeviceCredentialsService;
  releases: ReleasesService;
  gateway: GatewayService;
  dispenseReports: DispenseReportsService;
  pendingPoll: PendingPollService;
  /** The cabinet credential check every gateway and family-A leg starts with. */
  cabinetGuard: CabinetGuard;
  apk: ApkService;
  /** The background loops and their leader lease; started by main.ts (startJobs), read by the status endpoints. */
  jobs: Jobs;
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
  const cabinetSettings = new CabinetSettingsService({ store, clock, audit, sealer: ctx.sealer, config });
  const orders = new OrdersService({ store });
  const sales = new SalesService({ store, clock, audit });
  const inventory = new InventoryService({ store, audit });
  const commands = new CommandsService({ store, clock, audit, sales, pending: ctx.pendingNotifier });
  const payments = new PaymentsService({ store, clock, audit, orders, sales, config });
  const deviceCredentials = new DeviceCredentialsService(ctx);
  const releases = new ReleasesService(ctx);
  const gateway = new GatewayService({ store, clock, audit, devices: ctx.devices, creds: deviceCredentials, settings: cabinetSettings, config });
  const dispenseReports = new DispenseReportsService({ store, clock, commands, sales });
  const pendingPoll = new PendingPollService({ clock, commands, notifier: ctx.pendingNotifier });
  const apk = new ApkService({ store, clock, gateway });
  const jobs = new Jobs({ store, clock, audit, logger: ctx.logger, redis: ctx.redis, commands, releases, config });
  return {
    store,
    routes,
    machines,
    cabinetSettings,
    orders,
    sales,
    inventory,
    commands,
    payments,
    deviceCredentials,
    releases,
    gateway,
    dispenseReports,
    pendingPoll,
    cabinetGuard: cabinetGuard(deviceCredentials, gateway, config.fleetSecret),
    apk,
    jobs,
  };
}
