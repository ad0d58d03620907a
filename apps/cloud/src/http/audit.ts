import type { Clock } from '@vend/protocol';
import { newId } from '../crypto/ids.ts';
import type { Principal } from './principal.ts';
import { formatTimestamp } from './time-format.ts';
import type { AuditRepo } from './audit.repo.ts';

/** One audit record as the spec shows it (spec 1 §4.1); `timestamp` in the spec's `+0000` form. */
export interface AuditEntry {
  keyId: string | null;
  userId: string | null;
  action: string;
  resource: string;
  timestamp: string;
}

/** The repositories of one transaction (or of the database, for reads), as far as the audit log needs them. */
type AuditTx = { audit: AuditRepo };

/** Who a record names: the credential (key) and the operator (user) — an operator's principal, or a cabinet acting on its own machine. */
export type AuditActor = Pick<Principal, 'credentialId' | 'operatorId'>;

/** Every write is recorded as {keyId, userId, action, resource, timestamp}; call it inside the write's transaction. */
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  async record(tx: AuditTx, who: AuditActor | null, action: string, resource: string): Promise<void> {
    const now = this.clock.now();
    await tx.audit.insert({
      id: newId('aud', now),
      key_id: who?.credentialId ?? null,
      user_id: who?.operatorId ?? null,
      action,
      resource,
      timestamp: now,
    });
  }

  async list(tx: AuditTx, limit: number, offset: number): Promise<{ total: number; records: AuditEntry[] }> {
    const { total, rows } = await tx.audit.page(limit, offset);
    return {
      total,
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
