/** The OpenAPI document the cloud serves, read from a cloud started for the purpose (scripts/lint-openapi.ts, scripts/gen-console-api.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, stop } from './bench-support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the cloud (SQLite in a temp dir, a random port on 127.0.0.1), answers its `/openapi.json` and stops it. A
 * started process, not the composition root in-process: `createServices` is not among @vend/cloud's exports.
 */
export async function servedDocument(pod: string): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vend-${pod}-`));
  const cloud = await startProcess(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'apps/cloud/src/main.ts')],
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', POD_NAME: pod },
    /listening on (http:\/\/\S+)/,
  );
  try {
    const res = await fetch(`${cloud.url}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  } finally {
    await stop(cloud.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
