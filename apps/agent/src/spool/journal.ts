import { z } from 'zod';
import { DISPENSE_OUTCOMES, DispenseIdField } from '@vend/protocol';
import type { JsonlStore } from '../state/jsonl-journal.ts';

/**
 * The dispense journal: one JSON record per line, appended and fsynced before the agent acts on
 * it. Everything about a dispense that must survive a crash or a power cut is here:
 *
 *   intent     — written before the DISPENSE frame first goes on the wire: dispenseId, the command
 *                or order, the aisle, the VMC sequence number and boot id the frame carries, and
 *                the board's last sequence number before it
 *   outcome    — the board's answer (or the link's verdict); from here on it is a report to deliver
 *   delivered  — the cloud answered 2xx to the report
 *   rejected   — the cloud refused the report for good (4xx other than auth); kept for the technician
 *
 * A line cut short by a crash is the last line and is dropped on load (the file is truncated back
 * to the last whole record), so the journal is always a sequence of whole records.
 */

const common = {
  id: DispenseIdField,
  at: z.number().int(),
};
const Subject = {
  kind: z.enum(['command', 'order']),
  commandId: z.string().optional(),
  orderNumber: z.string().optional(),
  aisle: z.number().int().min(1),
};

export const IntentRecord = z.object({
  t: z.literal('intent'),
  ...common,
  ...Subject,
  seq: z.number().int().min(1).max(127),
  bootId: z.number().int().min(0),
  boardLastSeq: z.number().int().min(0).max(127),
});
export type IntentRecord = z.infer<typeof IntentRecord>;

export const OutcomeRecord = z.object({
  t: z.literal('outcome'),
  ...common,
  ...Subject,
  success: z.boolean(),
  outcome: z.enum(DISPENSE_OUTCOMES),
  detail: z.string(),
  motorRan: z.enum(['yes', 'no', 'unknown']),
  /** How it was decided: by the dispense itself, or after a restart from the board's stored result. */
  via: z.enum(['dispense', 'recovery']),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecord>;

export const DeliveredRecord = z.object({
  t: z.literal('delivered'),
  ...common,
  /** The cloud said it had this dispenseId already (the second line of defence took it). */
  duplicate: z.boolean(),
  status: z.string().nullable(),
});
export type DeliveredRecord = z.infer<typeof DeliveredRecord>;

export const RejectedRecord = z.object({
  t: z.literal('rejected'),
  ...common,
  status: z.number().int().nullable(),
  message: z.string(),
});
export type RejectedRecord = z.infer<typeof RejectedRecord>;

export const JournalRecord = z.discriminatedUnion('t', [IntentRecord, OutcomeRecord, DeliveredRecord, RejectedRecord]);
export type JournalRecord = z.infer<typeof JournalRecord>;

/** Where it lives: `JsonlJournal` (the file) in production, `MemoryJsonlJournal` in unit tests (state/jsonl-journal.ts). */
export type JournalStore = JsonlStore<JournalRecord>;
