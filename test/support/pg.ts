import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The few calls the end-to-end suites make on PostgreSQL (creating and dropping a database of their own). */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

/** A connected client from the cloud's own driver (the root package does not depend on pg). */
export async function pgClient(connectionString: string): Promise<PgClient> {
  const cloud = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/cloud/package.json');
  const pg = createRequire(cloud)('pg') as { Client: new (o: { connectionString: string }) => PgClient & { connect(): Promise<void> } };
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}
