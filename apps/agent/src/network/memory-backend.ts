import type { NetworkRequest } from '@vend/protocol';
import type { NetworkBackend } from './backend.ts';

/**
 * The test backend: profiles in memory, and a world of networks that exist and the passphrase each
 * takes. Like NetworkManager it keeps its profiles and the active one across an agent restart (the
 * same object is handed to the new provisioner); `up` of a Wi-Fi profile with the wrong PSK rejects.
 */
export class MemoryNetworkBackend implements NetworkBackend {
  readonly profiles = new Map<string, NetworkRequest | null>();
  current: string | null = null;
  /** SSIDs in range and their PSK (undefined: open). */
  readonly air = new Map<string, string | undefined>();
  /** Every call, in order: what a test asserts the provisioner did. */
  readonly calls: string[] = [];

  /** A profile the OS made (the cabinet's first network), up. */
  seed(id: string): void {
    this.profiles.set(id, null);
    this.current = id;
  }

  active(): Promise<string | null> {
    return Promise.resolve(this.current);
  }

  add(id: string, req: NetworkRequest): Promise<void> {
    this.calls.push(`add ${id}`);
    this.profiles.set(id, req);
    return Promise.resolve();
  }

  up(id: string): Promise<void> {
    this.calls.push(`up ${id}`);
    if (!this.profiles.has(id)) return Promise.reject(new Error(`no connection ${id}`));
    const req = this.profiles.get(id);
    if (req?.kind === 'wifi') {
      if (!this.air.has(req.ssid)) return Promise.reject(new Error(`no network ${req.ssid} in range`));
      if (this.air.get(req.ssid) !== req.psk) {
        // NetworkManager drops the old connection before it learns the new one's secrets are wrong
        this.current = null;
        return Promise.reject(new Error('secrets were required, but not provided'));
      }
    }
    this.current = id;
    return Promise.resolve();
  }

  remove(id: string): Promise<void> {
    this.calls.push(`remove ${id}`);
    this.profiles.delete(id);
    if (this.current === id) this.current = null;
    return Promise.resolve();
  }
}
