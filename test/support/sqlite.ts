import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The cloud's SQLite store opened read-only, on whichever Node runs the suite: on Node 24 the module built
 * for its ABI by scripts/setup-node24 (build/node-v<abi>/), as apps/cloud/src/db/database.ts does.
 */
export function openStoreReadonly(file: string): Database.Database {
  const pkg = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const binding = path.join(pkg, 'build', `node-v${process.versions.modules}`, 'better_sqlite3.node');
  return new Database(file, { readonly: true, fileMustExist: true, ...(fs.existsSync(binding) ? { nativeBinding: binding } : {}) });
}
