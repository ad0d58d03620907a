/** Scopes exactly as spec 1 §5. */
export const SCOPES = [
  'machines:read',
  'machines:write',
  'inventory:read',
  'inventory:write',
  'orders:read',
  'orders:write',
  'commands:read',
  'commands:write',
  'ads:read',
  'ads:write',
  'machines:build',
  'accounts:admin',
] as const;

export type Scope = (typeof SCOPES)[number];

/** A standard operator credential holds every scope except accounts:admin and machines:build. */
export const STANDARD_OPERATOR_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'accounts:admin' && s !== 'machines:build');
export const ADMIN_SCOPES: readonly Scope[] = SCOPES;
export const FACTORY_SCOPES: readonly Scope[] = ['machines:read', 'machines:build'];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** Stored as one space-separated string (the OAuth `scope` form); unknown words are dropped. */
export function parseScopes(s: string): Scope[] {
  return s.split(/\s+/).filter(isScope);
}

export function formatScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((s) => scopes.includes(s)).join(' ');
}
