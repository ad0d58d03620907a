import { statfsSync } from 'node:fs';
import type { JsonlStore } from './jsonl-journal.ts';

/**
 * The state directory's disk refusing writes (docs/decisions/outages.md, "The cabinet"). Every
 * journal write is whole or absent (jsonl-journal.ts takes a cut-short append back, fs-atomic.ts
 * renames only a complete temp file), so a full disk costs the write, never the file; what this
 * module adds is knowing it: which errors mean "no room", an episode logged once rather than on
 * every retry, and the room a vend needs before it may start.
 */

/** No room (ENOSPC), over a quota (EDQUOT), a file over its limit (EFBIG): the same to the agent, space must return. */
export function isDiskFull(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}

/**
 * Bytes a vend needs on the state disk before it starts: its intent, its outcome and its delivered
 * record (under 1 KiB each) and a compaction's temp copy of the journal are far below this; the
 * margin is for the other writers of the same disk (logs, the play spool) between the intent and
 * the outcome.
 */
export const VEND_ROOM_BYTES = 64 * 1024;

/** Free bytes an unprivileged writer may use under `dir`; null when the file system cannot say. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

export interface DiskEpisodeLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** What the status shows about the state disk while it refuses writes. */
export interface DiskFullState {
  since: number;
  what: string;
  message: string;
}

/**
 * One "disk full" episode at a time: the first refused write logs (warn) and is noted, later ones
 * while it lasts only update what is shown, and the first write that goes through again ends it
 * (logged once, info). Writers call `refused` / `wrote`; the status reads `state`.
 */
export class DiskWatch {
  private current: DiskFullState | null = null;

  constructor(
    private readonly log: DiskEpisodeLog,
    private readonly now: () => number,
    /** An episode began (its message) or ended (null). */
    private readonly onEpisode: (message: string | null) => void = () => {},
    /**
     * Space has returned. A small append can still land in the last, partly used block of a full
     * disk; without this the episode would flap with every such write and log each time.
     */
    private readonly hasRoom: () => boolean = () => true,
  ) {}

  get state(): DiskFullState | null {
    return this.current;
  }

  /** A write failed; returns true when it was the disk being full (the caller keeps its data and tries later). */
  refused(what: string, e: unknown): boolean {
    if (!isDiskFull(e)) return false;
    this.begin(what, `the state disk is full: ${what} could not be written (${(e as Error).message})`);
    return true;
  }

  /**
   * Asks the disk (before a vend, and for the status): too little room begins an episode even before any
   * write was refused (a vend refused for room must show why); room again ends one even when nothing has
   * been written since. Returns whether there is room.
   */
  check(): boolean {
    if (this.hasRoom()) {
      this.wrote();
      return true;
    }
    this.begin('a vend', 'the state disk is full: too little room to record a vend, so none is started until space returns');
    return false;
  }

  private begin(what: string, message: string): void {
    if (this.current === null) {
      this.current = { since: this.now(), what, message };
      this.log.warn({ what, message }, 'state disk full: writes refused until space returns');
      this.onEpisode(message);
    } else if (this.current.message !== message) {
      Object.assign(this.current, { what, message });
      this.onEpisode(message);
    }
  }

  /** A write went through: the episode is over once the disk has room again. */
  wrote(): void {
    if (this.current === null || !this.hasRoom()) return;
    this.log.info({ since: this.current.since, lastRefused: this.current.what }, 'state disk has room again: writes go through');
    this.current = null;
    this.onEpisode(null);
  }
}

/** A journal whose writes tell `watch` how the disk took them (the store itself is unchanged: whole records or none). */
export function watchedStore<R>(store: JsonlStore<R>, watch: DiskWatch, what: string): JsonlStore<R> {
  const observe = (write: () => void): void => {
    try {
      write();
    } catch (e) {
      watch.refused(what, e);
      throw e;
    }
    watch.wrote();
  };
  return {
    load: () => store.load(),
    append: (records) => observe(() => store.append(records)),
    rewrite: (records) => observe(() => store.rewrite(records)),
    close: () => store.close(),
  };
}
