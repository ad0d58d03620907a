import { z } from 'zod';
import { AD_SOURCES } from '@vend/protocol';
import { batchSpoolRecord } from '../cloud/batch-spool.ts';
import type { BatchSpoolRecord, SpoolItemRecord } from '../cloud/batch-spool.ts';
import type { JsonlStore } from '../state/jsonl-journal.ts';

/**
 * The play spool's file (`ad-plays.log`): the kiosk spools' record format (cloud/batch-spool.ts), one
 * showing per item record.
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

export const PlaySpoolRecord = batchSpoolRecord(SpooledPlay);
export type PlaySpoolRecord = BatchSpoolRecord<SpooledPlay>;
export type PlayRecord = SpoolItemRecord<SpooledPlay>;

/** Where it lives: `JsonlJournal` (the file) in production, `MemoryJsonlJournal` in unit tests (state/jsonl-journal.ts). */
export type PlayJournalStore = JsonlStore<PlaySpoolRecord>;
