import type { Clock } from '@vend/protocol';
import type { DeliveredRecord, IntentRecord, JournalRecord, JournalStore, OutcomeRecord, RejectedRecord } from './journal.ts';

/** Everything the journal says about one dispense. */
export interface DispenseEntry {
  id: string;
  intent?: IntentRecord;
  outcome?: OutcomeRecord;
  delivered?: DeliveredRecord;
  rejected?: RejectedRecord;
}

/** What one dispense came to, as a walk-up's caller gets it. */
export interface VendResult {
  dispenseId: string;
  kind: 'command' | 'order';
  commandId: string | null;
  orderNumber: string | null;
  aisle: number;
  success: boolean;
  outcome: string;
  detail: string;
  motorRan: string;
}

/** What an outcome record says to whoever asked for the vend. */
export function vendResultOf(record: Omit<OutcomeRecord, 't' | 'at' | 'via'>): VendResult {
  return {
    dispenseId: record.id,
    kind: record.kind,
    commandId: record.commandId ?? null,
    orderNumber: record.orderNumber ?? null,
    aisle: record.aisle,
    success: record.success,
    outcome: record.outcome,
    detail: record.detail,
    motorRan: record.motorRan,
  };
}

/** A vend as the control channel's "last vend results" shows it. */
export interface VendView extends VendResult {
  at: number;
  report: 'pending' | 'delivered' | 'rejected';
}

export interface BookOptions {
  /** Finished dispenses kept after a compaction (recent vends, command dedupe). */
  keepFinished?: number;
  /** ... and for at most this long. */
  keepFinishedMs?: number;
  /** Compact once this many records were appended since the last compaction. */
  compactEvery?: number;
}

/**
 * The journal's meaning, in memory: unresolved intents (a dispense whose outcome a crash took),
 * the report spool (outcomes not yet delivered, in the order they happened), and the dispenses
 * already known (so a command the cloud lists again is never run twice). Every change is appended
 * to the journal before it counts.
 */
export class DispenseBook {
  private entries = new Map<string, DispenseEntry>();
  /** Outcome order: the spool delivers in this order. */
  private outcomes: string[] = [];
  private commands = new Map<string, string>();
  private sinceCompaction = 0;
  private readonly opts: Required<BookOptions>;

  constructor(
    private readonly store: JournalStore,
    private readonly clock: Clock,
    opts: BookOptions = {},
  ) {
    this.opts = { keepFinished: 200, keepFinishedMs: 24 * 3600_000, compactEvery: 500, ...opts };
  }

  /** Reads the journal (repairing a torn tail). */
  load(): { records: number; dropped: number } {
    const { records, dropped } = this.store.load();
    for (const record of records) this.apply(record);
    return { records: records.length, dropped };
  }

  private apply(record: JournalRecord): void {
    let entry = this.entries.get(record.id);
    if (!entry) {
      entry = { id: record.id };
      this.entries.set(record.id, entry);
    }
    switch (record.t) {
      case 'intent':
        entry.intent = record;
        if (record.commandId) this.commands.set(record.commandId, record.id);
        break;
      case 'outcome':
        if (!entry.outcome) this.outcomes.push(record.id);
        entry.outcome = record;
        if (record.commandId) this.commands.set(record.commandId, record.id);
        break;
      case 'delivered':
        entry.delivered = record;
        break;
      case 'rejected':
        entry.rejected = record;
        break;
    }
  }

  private write(record: JournalRecord): void {
    this.store.append([record]); // durable first
    this.apply(record);
    this.sinceCompaction++;
  }

  recordIntent(record: Omit<IntentRecord, 't' | 'at'>): void {
    this.write({ t: 'intent', at: this.clock.now(), ...record });
  }

  recordOutcome(record: Omit<OutcomeRecord, 't' | 'at'>): void {
    if (this.entries.get(record.id)?.outcome) throw new Error(`dispense ${record.id} already has an outcome`);
    this.write({ t: 'outcome', at: this.clock.now(), ...record });
  }

  recordDelivered(id: string, record: { duplicate: boolean; status: string | null }): void {
    this.write({ t: 'delivered', id, at: this.clock.now(), ...record });
    this.maybeCompact();
  }

  recordRejected(id: string, record: { status: number | null; message: string }): void {
    this.write({ t: 'rejected', id, at: this.clock.now(), ...record });
    this.maybeCompact();
  }

  get(id: string): DispenseEntry | undefined {
    return this.entries.get(id);
  }

  /** Intents a crash left without an outcome, oldest first. */
  unresolved(): IntentRecord[] {
    const out: IntentRecord[] = [];
    for (const entry of this.entries.values()) if (entry.intent && !entry.outcome) out.push(entry.intent);
    return out.sort((a, b) => a.at - b.at);
  }

  /** Reports not yet delivered, in the order the dispenses ended. */
  pending(): OutcomeRecord[] {
    const out: OutcomeRecord[] = [];
    for (const id of this.outcomes) {
      const entry = this.entries.get(id);
      if (entry?.outcome && !entry.delivered && !entry.rejected) out.push(entry.outcome);
    }
    return out;
  }

  /** The next report to deliver. */
  head(): OutcomeRecord | undefined {
    for (const id of this.outcomes) {
      const entry = this.entries.get(id);
      if (entry?.outcome && !entry.delivered && !entry.rejected) return entry.outcome;
    }
    return undefined;
  }

  /** Reports waiting (the spool depth; zero is one of the upgrade's quiet conditions). */
  depth(): number {
    return this.pending().length;
  }

  /** This agent already has (or had) a dispense for the command: never run it again. */
  knowsCommand(commandId: string): boolean {
    return this.commands.has(commandId);
  }

  /** The last `limit` vends, newest first. */
  recent(limit: number): VendView[] {
    const out: VendView[] = [];
    for (let i = this.outcomes.length - 1; i >= 0 && out.length < limit; i--) {
      const entry = this.entries.get(this.outcomes[i]!);
      const outcome = entry?.outcome;
      if (!entry || !outcome) continue;
      out.push({ ...vendResultOf(outcome), at: outcome.at, report: entry.delivered ? 'delivered' : entry.rejected ? 'rejected' : 'pending' });
    }
    return out;
  }

  /** Rejected reports (the technician's attention), newest first. */
  rejected(limit = 10): RejectedRecord[] {
    const out: RejectedRecord[] = [];
    for (const entry of this.entries.values()) if (entry.rejected) out.push(entry.rejected);
    return out.sort((a, b) => b.at - a.at).slice(0, limit);
  }

  /**
   * Rewrites the journal without what no longer matters: finished dispenses beyond the newest
   * `keepFinished` (or older than `keepFinishedMs`) go; unfinished ones are kept whole.
   */
  compact(): void {
    const now = this.clock.now();
    const byOutcome = new Map(this.outcomes.map((id, i) => [id, i]));
    const finished = [...this.entries.values()].filter((e) => e.outcome && (e.delivered || e.rejected));
    // newest first by the order they happened (the journal's), not by their `at`: after the wall clock was
    // stepped back the newest vends carry the oldest times, and they are the ones a racing poll may list again
    finished.sort((a, b) => byOutcome.get(b.id)! - byOutcome.get(a.id)!);
    const drop = new Set<string>();
    finished.forEach((e, i) => {
      if (i >= this.opts.keepFinished || now - e.outcome!.at > this.opts.keepFinishedMs) drop.add(e.id);
    });
    const keep: JournalRecord[] = [];
    const live = [...this.entries.values()].filter((e) => !drop.has(e.id));
    // intents without outcome first (their order does not matter), then by outcome order
    live.sort((a, b) => (byOutcome.get(a.id) ?? -1) - (byOutcome.get(b.id) ?? -1));
    for (const entry of live) {
      const finishedEntry = entry.outcome && (entry.delivered || entry.rejected);
      if (entry.intent && !finishedEntry) keep.push(entry.intent);
      if (entry.outcome) keep.push(entry.outcome);
      if (entry.delivered) keep.push(entry.delivered);
      if (entry.rejected) keep.push(entry.rejected);
    }
    this.store.rewrite(keep);
    this.entries = new Map();
    this.outcomes = [];
    this.commands = new Map();
    for (const record of keep) this.apply(record);
    this.sinceCompaction = 0;
  }

  private maybeCompact(): void {
    if (this.sinceCompaction < this.opts.compactEvery) return;
    try {
      this.compact();
    } catch {
      // the rewrite (a temp copy, then a rename) found no room: the journal stays whole as it was, its
      // records all counted; the next record tries again
    }
  }
}
