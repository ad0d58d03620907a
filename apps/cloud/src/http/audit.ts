import type { Kysely } from 'kysely';
import type { Clock } from '@vend/protocol';
import type { DB } from '../db/schema.ts';
import { newId } from '../crypto/ids.ts';
import type { Principal } from './principal.ts';
import { formatTimestamp } from './time-format.ts';

/** One audit record as the spec shows it (spec 1 §4.1); `timestamp` in the spec's `+0000` form. */
export interface AuditEntry {
  keyId: string | null;
  userId: string | null;
  action: string;
  resource: string;
  timestamp: string;
}

/** Every write is recorded as {keyId, userId, action, resource, timestamp}; call it inside the write's transaction. */
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  async record(db: Kysely<DB>, who: Principal | null, action: string, resource: string): Promise<void> {
    const now = this.clock.now();
    await db
      .insertInto('audit_log')
      .values({
        id: newId('aud', now),
        key_id: who?.credentialId ?? null,
        user_id: who?.operatorId ?? null,
        action,
        resource,
        timestamp: now,
      })
      .execute();
  }

  async list(db: Kysely<DB>, limit: number, offset: number): Promise<{ total: number; records: AuditEntry[] }> {
    const rows = await db.selectFrom('audit_log').selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      total: Number(n),
      records: rows.map((r) => ({
        keyId: r.key_id,
        userId: r.user_id,
        action: r.action,
        resource: r.resource,
        timestamp: formatTimestamp(r.timestamp)!,
      })),
    };
  }
}
