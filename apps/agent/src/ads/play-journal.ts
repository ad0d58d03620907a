import { z } from 'zod';
import { AD_SOURCES } from '@vend/protocol';
import type { JsonlStore } from '../state/jsonl-journal.ts';

/**
 * The play spool's file (`ad-plays.log`): one JSON record per line, appended and fsynced before the
 * kiosk hears "accepted". Plays get increasing numbers `n`; every other record ends a *prefix* of
 * them (`upTo`): delivered (the cloud's 2xx), rejected (the cloud refused that play for good), dropped
 * (the spool was over its cap). So the plays still to deliver are those numbered above the highest
 * `upTo`, in order. A compaction rewrites the file (atomically) as one `meta` record carrying the
 * totals and the plays still to deliver. A line cut short by a crash is the last one and is dropped
 * on load (the file truncated back to the last whole record).
 */

/** One showing as it is kept and sent: `playedAt` fixed (epoch ms) when the kiosk reported it, so a retry counts once. */
export const SpooledPlay = z.object({
  id: z.string(),
  campaignId: z.string().optional(),
  source: z.enum(AD_SOURCES).optional(),
  playedAt: z.number().int().min(0),
  durationMs: z.number().int().min(0).optional(),
});
export type SpooledPlay = z.infer<typeof SpooledPlay>;

const n = z.number().int().min(1);
const at = z.number().int();
export const PlayRecord = z.object({ t: z.literal('play'), n, at, play: SpooledPlay });
export type PlayRecord = z.infer<typeof PlayRecord>;
export const PlaySpoolRecord = z.discriminatedUnion('t', [
  PlayRecord,
  z.object({ t: z.literal('delivered'), upTo: n, at, accepted: z.number().int(), duplicates: z.number().int() }),
  z.object({ t: z.literal('rejected'), upTo: n, at, status: z.number().int().nullable(), message: z.string() }),
  z.object({ t: z.literal('dropped'), upTo: n, at, count: z.number().int() }),
  z.object({
    t: z.literal('meta'),
    at,
    /** The highest play number ever given (so numbers never repeat after a compaction). */
    lastN: z.number().int().min(0),
    delivered: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    dropped: z.number().int(),
    lastDeliveredAt: at.nullable(),
  }),
]);
export type PlaySpoolRecord = z.infer<typeof PlaySpoolRecord>;

/** Where it lives: `JsonlJournal` (the file) in production, `MemoryJsonlJournal` in unit tests (state/jsonl-journal.ts). */
export type PlayJournalStore = JsonlStore<PlaySpoolRecord>;
