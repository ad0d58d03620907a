import type { Clock, ControlPrizeEventsAccepted, ControlPrizeState, ControlPrizesStatus, PrizeEvent } from '@vend/protocol';
import type { AgentConfig } from '../config.ts';
import type { RandomSource } from '../cloud/backoff.ts';
import { ItemsRefused } from '../cloud/batch-spool.ts';
import type { SpoolTotals } from '../cloud/batch-spool.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { readTextIfExists } from '../state/fs-atomic.ts';
import { JsonlJournal, MemoryJsonlJournal } from '../state/jsonl-journal.ts';
import type { StateDir } from '../state/state-dir.ts';
import { PrizeSpool, PrizeSpoolRecord } from './prize-spool.ts';
import { FilePrizeStateStore, PrizeStateKeeper } from './prize-state.ts';

/** What the kiosk's prize routes of the control channel need (control/kiosk.ts). */
export interface KioskPrizes {
  /** Takes the kiosk's events durably; ItemsRefused for a disk that refuses (503). */
  addEvents(events: PrizeEvent[]): ControlPrizeEventsAccepted;
  /** The last state the cloud answered. */
  state(): ControlPrizeState;
}

export type PrizesConfig = Pick<AgentConfig, 'prizeEventSpoolMax' | 'prizeEventFlushSeconds' | 'configRefreshSeconds' | 'backoffBaseMs' | 'backoffCapMs'>;

export interface PrizesOptions {
  config: PrizesConfig;
  state: Pick<StateDir, 'path'>;
  client: Pick<CloudClient, 'prizeEvents' | 'prizeMechanics'>;
  clock: Clock;
  random: RandomSource;
  log: { child(b: object): CloudLogger } & CloudLogger;
  onEventRejected?(message: string): void;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The kiosk prize game on the cabinet (docs/agent.md "Prize game"): the kiosk's game events spooled
 * to `POST /cabinet/prize-events` (prize-spool.ts) and the cloud's last `state` kept for the kiosk
 * (prize-state.ts). The daemon builds one and runs it beside its cloud loops.
 */
export class Prizes implements KioskPrizes {
  readonly spool: PrizeSpool;
  readonly keeper: PrizeStateKeeper;
  private readonly journal: JsonlJournal<PrizeSpoolRecord>;

  constructor(opts: PrizesOptions) {
    const { config, state, client, clock, random, log } = opts;
    const backoff = { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs };
    this.keeper = new PrizeStateKeeper({
      store: new FilePrizeStateStore(state.path('prizeState')),
      client,
      clock,
      random,
      backoff,
      log: log.child({ part: 'prize-state' }),
      refreshMs: config.configRefreshSeconds * 1000,
    });
    this.journal = new JsonlJournal(state.path('prizeEvents'), PrizeSpoolRecord);
    this.spool = new PrizeSpool({
      journal: this.journal,
      client,
      clock,
      random,
      backoff,
      log: log.child({ part: 'prize-events' }),
      max: config.prizeEventSpoolMax,
      flushMs: config.prizeEventFlushSeconds * 1000,
      onState: (s) => this.keeper.accept(s),
      onRejected: (e, message) => opts.onEventRejected?.(`prize event ${e.eventId} rejected: ${message}`),
    });
  }

  /** Reads the spool file; returns the lines it dropped as torn. */
  load(): { droppedLines: number } {
    return { droppedLines: this.spool.load().dropped };
  }

  /** The state refresh and the event delivery, until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.keeper.start(signal), this.spool.start(signal)]);
  }

  /** The cloud is reachable with the key now (registered): fetch and deliver at once. */
  wake(): void {
    this.keeper.wake();
    this.spool.wake();
  }

  /** Another call reached the cloud. */
  nudge(): void {
    this.keeper.nudge();
    this.spool.nudge();
  }

  close(): void {
    this.journal.close();
  }

  addEvents(events: PrizeEvent[]): ControlPrizeEventsAccepted {
    try {
      return this.spool.add(events);
    } catch (e) {
      if (e instanceof ItemsRefused) throw e;
      throw new ItemsRefused(503, 'spool-unavailable', `the events could not be written to disk: ${(e as Error).message}`);
    }
  }

  state(): ControlPrizeState {
    return this.keeper.view();
  }

  status(): ControlPrizesStatus {
    return prizesStatus(this.spool, this.keeper);
  }
}

function prizesStatus(
  spool: { backlog: number; oldestAt: number | null; totals: SpoolTotals; lastError: { at: number; message: string } | null },
  keeper: Pick<PrizeStateKeeper, 'view' | 'lastError'>,
): ControlPrizesStatus {
  const view = keeper.view();
  return {
    events: {
      backlog: spool.backlog,
      oldestAt: iso(spool.oldestAt),
      ...spool.totals,
      lastDeliveredAt: iso(spool.totals.lastDeliveredAt),
      lastError: spool.lastError ? { at: iso(spool.lastError.at), message: spool.lastError.message } : null,
    },
    state: {
      fetchedAt: view.fetchedAt,
      source: view.source,
      lastError: keeper.lastError ? { at: iso(keeper.lastError.at), message: keeper.lastError.message } : null,
    },
  };
}

/** The prize game read from the state directory alone (the daemon is not running): what `status` prints then. */
export function offlinePrizes(state: Pick<StateDir, 'path'>, clock: Clock): ControlPrizesStatus {
  const noop = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const offline = () => Promise.reject(new Error('offline'));
  const journal = new MemoryJsonlJournal(PrizeSpoolRecord);
  journal.text = readTextIfExists(state.path('prizeEvents')) ?? '';
  const timing = { clock, random: () => 0, backoff: { baseMs: 1, capMs: 1 } };
  const spool = new PrizeSpool({
    ...timing,
    journal,
    client: { prizeEvents: offline },
    log: noop,
    max: Number.MAX_SAFE_INTEGER,
    flushMs: 0,
    onState: () => {},
  });
  spool.load();
  const keeper = new PrizeStateKeeper({
    ...timing,
    store: new FilePrizeStateStore(state.path('prizeState')),
    client: { prizeMechanics: offline },
    log: noop,
    refreshMs: 0,
  });
  return prizesStatus(spool, keeper);
}
