import { z } from 'zod';
import { PrizeStateData } from '@vend/protocol';
import type { ControlPrizeState } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { DeliveryLoop } from '../cloud/delivery-loop.ts';
import type { DeliveryLoopOptions } from '../cloud/delivery-loop.ts';
import { readJsonIfValid, writeFileAtomic } from '../state/fs-atomic.ts';

/** The last state the cloud answered, as kept on disk (`prize-state.json`). */
export const StoredPrizeState = z.object({ fetchedAt: z.number().int(), state: PrizeStateData });
export type StoredPrizeState = z.infer<typeof StoredPrizeState>;

export interface PrizeStateStore {
  read(): StoredPrizeState | null;
  write(stored: StoredPrizeState): void;
}

export class FilePrizeStateStore implements PrizeStateStore {
  constructor(readonly path: string) {}
  read(): StoredPrizeState | null {
    return readJsonIfValid(this.path, StoredPrizeState);
  }
  write(stored: StoredPrizeState): void {
    writeFileAtomic(this.path, JSON.stringify(stored) + '\n', { mode: 0o600 });
  }
}

export class MemoryPrizeStateStore implements PrizeStateStore {
  writes = 0;
  constructor(public stored: StoredPrizeState | null = null) {}
  read(): StoredPrizeState | null {
    return this.stored;
  }
  write(stored: StoredPrizeState): void {
    this.writes++;
    this.stored = stored;
  }
}

export interface PrizeStateKeeperOptions extends DeliveryLoopOptions {
  store: PrizeStateStore;
  client: Pick<CloudClient, 'prizeMechanics'>;
  log: CloudLogger;
  /** How often `GET /cabinet/prize-mechanics` is asked (the configuration refresh's interval). */
  refreshMs: number;
}

/**
 * The prize state the kiosk follows: the last `state` block the cloud answered — to a batch of events
 * (`accept`) or to `GET /cabinet/prize-mechanics`, asked at start (once the cabinet may call the cloud)
 * and every `refreshMs` — written to disk atomically, so the kiosk knows which mechanics are on and
 * what is left to award while the cloud is away and after a restart. A failed fetch keeps the last
 * state and is retried with the backoff.
 */
export class PrizeStateKeeper extends DeliveryLoop {
  private stored: StoredPrizeState | null;
  private fromCloud = false;
  lastError: { at: number; message: string } | null = null;

  constructor(private readonly opts: PrizeStateKeeperOptions) {
    super(opts);
    this.stored = opts.store.read();
  }

  /** A state the cloud just answered; kept (a disk that refuses is logged: the state still serves from memory). */
  accept(state: PrizeStateData): void {
    this.stored = { fetchedAt: this.opts.clock.now(), state };
    this.fromCloud = true;
    try {
      this.opts.store.write(this.stored);
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, 'prize state could not be written to disk');
    }
  }

  view(): ControlPrizeState {
    const s = this.stored;
    return {
      state: s?.state ?? null,
      fetchedAt: s ? new Date(s.fetchedAt).toISOString() : null,
      ageSeconds: s ? Math.max(0, Math.floor((this.opts.clock.now() - s.fetchedAt) / 1000)) : null,
      source: s === null ? 'none' : this.fromCloud ? 'cloud' : 'disk',
    };
  }

  protected override async loop(signal: AbortSignal): Promise<void> {
    const { client, clock, log } = this.opts;
    while (!signal.aborted) {
      let wait: number | null = this.opts.refreshMs;
      try {
        this.accept(await client.prizeMechanics({ attempts: 1, signal }));
        this.answered();
      } catch (e) {
        if (e instanceof CloudError && e.kind === 'aborted') return;
        this.lastError = { at: clock.now(), message: (e as Error).message };
        if (e instanceof CloudError && (e.kind === 'revoked' || (e.kind === 'http' && e.status === 410)))
          wait = null; // until woken
        else {
          wait = e instanceof CloudError ? this.retryDelay(e) : this.backoffDelay();
          if (!(e instanceof CloudError && e.kind === 'no-credential'))
            log.warn({ error: (e as Error).message, retryInMs: wait }, 'prize state not fetched; the last one stays');
        }
      }
      await this.idle(signal, wait);
    }
  }
}
