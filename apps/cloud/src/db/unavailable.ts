/**
 * Whether an error means the store (the database, or the media files beside it) could not be reached or could not take the write — not that the request or the
 * code was wrong. Such a request is answered 503 with Retry-After (docs/decisions/outages.md): the client may try
 * again, and nothing was half-written (every write is one transaction, rolled back by the server or never begun).
 */

/** PostgreSQL SQLSTATEs of a server going away or refusing new work: 08 connection exceptions, 57P0x shutdowns, 53 resources. */
const PG_UNAVAILABLE_CLASSES = ['08', '53'];
const PG_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P05']);
/** A transaction the server rolled back to let another through (serialization failure, deadlock): retried, it goes. */
const PG_BUSY_CODES = new Set(['40001', '40P01']);

/** Socket failures on the way to the server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres's own messages for a connection that ended or never came (they carry no code). */
const PG_CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

export type UnavailableReason = 'unreachable' | 'full' | 'io' | 'busy';

/** Why the store failed this request, or null when the error is something else. */
export function storeUnavailable(err: unknown): UnavailableReason | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // 53100: PostgreSQL's disk_full; SQLite's extended codes name their family first (SQLITE_IOERR_WRITE)
      if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
      if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN' || code === 'EIO') return 'io';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || PG_BUSY_CODES.has(code)) return 'busy';
      if (SOCKET_CODES.has(code) || PG_UNAVAILABLE_CODES.has(code)) return 'unreachable';
      if (/^[0-9A-Z]{5}$/.test(code) && PG_UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return 'unreachable';
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CLIENT_MESSAGES.some((m) => message.startsWith(m))) return 'unreachable';
    // AggregateError (a connect that tried IPv4 and IPv6): any of its errors
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors))
      for (const inner of errors) {
        const reason = storeUnavailable(inner);
        if (reason) return reason;
      }
  }
  return null;
}
