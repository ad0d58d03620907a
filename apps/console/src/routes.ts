import type { Api } from './api.ts';
import { agentsView } from './agents-view.ts';
import { campaignsView } from './campaigns-view.ts';
import { fleetView } from './fleet-view.ts';
import { MachineView } from './machine-view.ts';
import { moneyView } from './money-view.ts';
import { ordersView } from './orders-view.ts';
import { pickListView } from './pick-list-view.ts';
import { placementsView } from './placements-view.ts';
import { runsView } from './runs-view.ts';
import { salesView } from './sales-view.ts';

/** One page of the console: the path it answers (after `/console`), its title, and how it is built from the API. */
export interface Route {
  /** Matched against `location.pathname` without `/console` and trailing slashes ('' is the fleet). */
  pattern: RegExp;
  title: (match: RegExpExecArray) => string;
  view: (api: Api, match: RegExpExecArray) => Promise<HTMLElement>;
  /** The top navigation's label, for the pages listed there. */
  nav?: string;
  /** The address the navigation links to. */
  href?: string;
}

export const ROUTES: readonly Route[] = [
  { pattern: /^$/, title: () => 'Machines', view: (api) => fleetView(api), nav: 'Machines', href: '/console/' },
  {
    pattern: /^\/machines\/([^/]+)$/,
    title: (m) => decodeURIComponent(m[1]!),
    view: (api, m) => new MachineView(api, decodeURIComponent(m[1]!)).mount(),
  },
  { pattern: /^\/sales$/, title: () => 'Sales', view: (api) => salesView(api), nav: 'Sales', href: '/console/sales' },
  { pattern: /^\/orders$/, title: () => 'Orders', view: (api) => ordersView(api), nav: 'Orders', href: '/console/orders' },
  { pattern: /^\/pick-list$/, title: () => 'Pick list', view: (api) => pickListView(api), nav: 'Pick list', href: '/console/pick-list' },
  { pattern: /^\/runs$/, title: () => 'Restock runs', view: (api) => runsView(api), nav: 'Runs', href: '/console/runs' },
  { pattern: /^\/campaigns$/, title: () => 'Campaigns', view: (api) => campaignsView(api), nav: 'Campaigns', href: '/console/campaigns' },
  { pattern: /^\/placements$/, title: () => 'Placements', view: (api) => placementsView(api), nav: 'Placements', href: '/console/placements' },
  { pattern: /^\/money$/, title: () => 'Money', view: (api) => moneyView(api), nav: 'Money', href: '/console/money' },
  { pattern: /^\/agents$/, title: () => 'Agents', view: (api) => agentsView(api), nav: 'Agents', href: '/console/agents' },
  {
    pattern: /^\/access$/,
    title: () => 'Switch fleet',
    view: (api) => import('./access-view.ts').then((m) => m.accessView(api)),
    nav: 'Switch fleet',
    href: '/console/access',
  },
];
