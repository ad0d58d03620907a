import type { Socket } from 'node:net';
import type pg from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * How long one statement may go unanswered before its connection is given up (docs/decisions/outages.md). A
 * statement of this service takes milliseconds; one that takes this long is waiting on a network that drops its
 * packets (a cut link, a dead route: no RST ever comes, and the kernel's keepalive would take minutes), and its
 * request is answered 503 instead of hanging. Migrations at start are not bound (an index build may be long).
 */
export const QUERY_DEADLINE_MS = 10_000;

/** node-postgres's socket under a client: destroying it fails the statement in flight ("Connection terminated"). */
const socketOf = (client: pg.PoolClient) => (client as unknown as { connection: { stream: Socket } }).connection.stream;

/**
 * The pool as Kysely sees it, each statement under a deadline (`deadlineMs()`, 0: none). Past it the connection is
 * destroyed: the statement fails as a lost connection would, and the pool drops the client when it comes back.
 */
export function withQueryDeadline(pool: pg.Pool, deadlineMs: () => number): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      const query = (<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>) => {
        const ms = deadlineMs();
        if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never);
        const pending = client.query(sqlOrCursor, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<R>>;
        if (ms <= 0) return pending;
        const timer = setTimeout(() => socketOf(client).destroy(), ms);
        return pending.finally(() => clearTimeout(timer));
      }) as PostgresPoolClient['query'];
      return { query, release: () => client.release() };
    },
    end: () => pool.end(),
  };
}
