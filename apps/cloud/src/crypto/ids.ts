import { randomBytes } from 'node:crypto';

/** Opaque record ids: a prefix, the creation time in base36 (so ids sort by time) and 8 random bytes. */
export function newId(prefix: string, now: number): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}
