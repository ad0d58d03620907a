import type { Clock } from '@vend/protocol';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
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

  /** One sweep; answers how many machines changed. */
  async sweep(): Promise<number> {
    const now = this.d.clock.now();
    const cutoff = now - OFFLINE_AFTER_MS;
    let changed = 0;
    for (const m of await this.d.store.repos.alerts.presenceChanges(cutoff, BATCH)) {
      const to = m.last_seen < cutoff ? 'offline' : 'online';
      const done = await this.d.store.transaction(async (tx) => {
        if (!(await tx.alerts.setPresence(m.machine_id, m.state, to, now))) return false;
        if (m.state === null && to === 'online') return true;
        await this.d.events.emit(tx, {
          operatorId: m.operator_id,
          type: to === 'offline' ? 'machine.offline' : 'machine.online',
          machineNo: m.machine_no,
          data: { lastSeenAt: formatTimestamp(m.last_seen), unseenSeconds: Math.floor((now - m.last_seen) / 1000) },
        });
        return true;
      });
      if (done) changed++;
    }
    return changed;
  }
}
