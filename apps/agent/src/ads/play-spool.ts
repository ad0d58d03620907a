import { AD_RECORDS_MAX, CONTROL_AD_PLAYS_MAX } from '@vend/protocol';
import type { ControlAdPlay, ControlAdPlaysAccepted } from '@vend/protocol';
import { BatchSpool, ItemsRefused } from '../cloud/batch-spool.ts';
import type { SpoolTotals } from '../cloud/batch-spool.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import type { DeliveryLoopOptions } from '../cloud/delivery-loop.ts';
import type { PlayJournalStore, SpooledPlay } from './play-journal.ts';

/** A play whose `playedAt` lies further ahead of the agent's clock than this is refused (the kiosk runs on the same box). */
export const PLAYED_AT_MAX_AHEAD_MS = 10 * 60_000;
export { COMPACT_AFTER_LINES } from '../cloud/batch-spool.ts';
/** The kiosk's plays cannot be taken (the HTTP status the control channel answers): the kiosk spools' one refusal. */
export { ItemsRefused as PlaysRefused } from '../cloud/batch-spool.ts';

/** `playedAt` as epoch ms: ISO 8601 or epoch ms as sent, the agent's clock when absent; null when it names no instant. */
export function playedAtMs(v: string | number | undefined, now: number): number | null {
  if (v === undefined) return now;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : null;
  if (/^\d{1,15}$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isFinite(t) && t >= 0 ? t : null;
}

/** The kiosk's plays as they are kept: `playedAt` fixed now (so a resend is the same play); unreadable or far-future ones refused (400). */
export function normalizePlays(plays: ControlAdPlay[], now: number): SpooledPlay[] {
  return plays.map((p, i) => {
    const playedAt = playedAtMs(p.playedAt, now);
    if (playedAt === null) throw new ItemsRefused(400, 'bad-request', `plays.${i}.playedAt: not an ISO 8601 time or epoch milliseconds`);
    if (playedAt > now + PLAYED_AT_MAX_AHEAD_MS) throw new ItemsRefused(400, 'bad-request', `plays.${i}.playedAt: in the future`);
    const out: SpooledPlay = { id: p.id, playedAt };
    if (p.campaignId !== undefined) out.campaignId = p.campaignId;
    if (p.source !== undefined) out.source = p.source;
    if (p.durationMs !== undefined) out.durationMs = p.durationMs;
    return out;
  });
}

export interface PlaySpoolOptions extends DeliveryLoopOptions {
  journal: PlayJournalStore;
  client: Pick<CloudClient, 'saveAdRecords'>;
  log: CloudLogger;
  /** Plays kept at most; past it the oldest are dropped (counted). At least CONTROL_AD_PLAYS_MAX. */
  max: number;
  /** How long plays gather before a batch is sent (0: at once). A full batch goes at once. */
  flushMs: number;
  /** A play the cloud refused for good (set aside, counted). */
  onRejected?(play: SpooledPlay, message: string): void;
}

export type PlayTotals = SpoolTotals;

/**
 * The proof-of-play spool: a kiosk spool (cloud/batch-spool.ts) of the kiosk's plays, sent to
 * `/apk/saveAdRecord` in batches of at most 500. The cloud counts a (machine, entry, playedAt) once,
 * so a play is known by its entry id and playedAt.
 */
export class PlaySpool extends BatchSpool<SpooledPlay> {
  constructor(opts: PlaySpoolOptions) {
    const { client, onRejected, ...rest } = opts;
    super({
      ...rest,
      noun: 'ad play',
      requestMax: CONTROL_AD_PLAYS_MAX,
      batchMax: AD_RECORDS_MAX,
      key: (p) => `${p.id}\u0000${p.playedAt}`,
      send: (plays, options) => client.saveAdRecords(plays, options),
      ...(onRejected ? { onRejected } : {}),
    });
  }

  override add(plays: SpooledPlay[]): ControlAdPlaysAccepted {
    return super.add(plays);
  }
}
