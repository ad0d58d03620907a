import type { Clock } from '@vend/protocol';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { PresenceChange } from './alerts.repo.ts';
import type { EventSink } from '../webhooks/webhook-events.ts';
import { OFFLINE_AFTER_MS } from './alerts.rules.ts';

export interface PresenceDeps {
  store: AppStore;
  clock: Clock;
  events: EventSink;
}

const BATCH = 500;

/**
 * Machine presence (spec 1 §8: unseen more than about 10 minutes is effectively down): the sweep compares
 * each machine's last contact with what it last concluded and raises `machine.offline` / `machine.online`
 * once per change, in the transaction that records it. A machine first seen online raises nothing.
 */
export class PresenceService {
  constructor(private readonly d: PresenceDeps) {}

  /**
   * One sweep; answers how many machines changed. A tick's batch is one transaction, and machines never
   * recorded are inserted in one statement: after a mass reconnect (a cloud outage, a fleet coming
   * online) the sweep is one commit, not one per machine competing with the cabinets' own for the store.
   */
  async sweep(): Promise<number> {
    const now = this.d.clock.now();
    const cutoff = now - OFFLINE_AFTER_MS;
    const batch = await this.d.store.repos.alerts.presenceChanges(cutoff, BATCH);
    if (batch.length === 0) return 0;
    const stateOf = (m: PresenceChange) => (m.last_seen < cutoff ? 'offline' : 'online');
    return this.d.store.transaction(async (tx) => {
      const first = batch.filter((m) => m.state === null);
      const inserted = await tx.alerts.insertFirstPresence(first.map((m) => ({ machine_id: m.machine_id, state: stateOf(m), changed_at: now })));
      let changed = inserted.size;
      for (const m of first) if (inserted.has(m.machine_id) && stateOf(m) === 'offline') await this.raise(tx, m, 'offline', now);
      for (const m of batch) {
        if (m.state === null || !(await tx.alerts.setPresence(m.machine_id, m.state, stateOf(m), now))) continue;
        await this.raise(tx, m, stateOf(m), now);
        changed++;
      }
      return changed;
    });
  }

  private raise(tx: Repos, m: PresenceChange, to: 'offline' | 'online', now: number): Promise<unknown> {
    return this.d.events.emit(tx, {
      operatorId: m.operator_id,
      type: to === 'offline' ? 'machine.offline' : 'machine.online',
      machineNo: m.machine_no,
      data: { lastSeenAt: formatTimestamp(m.last_seen), unseenSeconds: Math.floor((now - m.last_seen) / 1000) },
    });
  }
}
