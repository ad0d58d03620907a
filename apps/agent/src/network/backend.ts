import type { NetworkRequest } from '@vend/protocol';

/**
 * What the provisioner needs of the host's network stack. Connection ids are the agent's own names
 * (`vend-<n>`) for profiles it made; `active()` may answer any profile's name (one the OS made too).
 */
export interface NetworkBackend {
  /** The connection carrying the cabinet's traffic now, or null when none is up. */
  active(): Promise<string | null>;
  /** Stores a profile under `id` without bringing it up. */
  add(id: string, req: NetworkRequest): Promise<void>;
  /** Brings `id` up (and the one it replaces down); rejects when it cannot (a wrong PSK, no carrier). */
  up(id: string): Promise<void>;
  /** Deletes the profile `id`; one already gone is no error. */
  remove(id: string): Promise<void>;
}
