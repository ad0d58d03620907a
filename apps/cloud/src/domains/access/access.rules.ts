import type { Scope } from '../../http/scopes.ts';

/** What a group may grant: the scopes of running machines. Money, ads, builds and accounts stay with the operator. */
export const GROUP_SCOPES = [
  'machines:read',
  'machines:write',
  'inventory:read',
  'inventory:write',
  'orders:read',
  'orders:write',
  'commands:read',
  'commands:write',
] as const satisfies readonly Scope[];
export type GroupScope = (typeof GROUP_SCOPES)[number];

/** A group made without `scopes` lets its people look, not touch. */
export const DEFAULT_GROUP_SCOPES: readonly GroupScope[] = ['machines:read', 'inventory:read', 'orders:read', 'commands:read'];

/** An access session lasts a working shift. */
export const ACCESS_SESSION_TTL_SECONDS = 12 * 3600;

/** The session's scopes: what the group grants and the opening credential holds, never more than either. */
export function sessionScopes(group: readonly Scope[], opener: ReadonlySet<Scope>): Scope[] {
  return group.filter((s) => opener.has(s));
}
