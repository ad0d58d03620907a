/**
 * Lints the OpenAPI document the cloud serves (issue 10): starts the cloud (SQLite in a temp dir, a
 * random port on 127.0.0.1), writes its `/openapi.json` to `.tmp/openapi.json` and runs Redocly's
 * linter on it with the rules in `redocly.yaml` (recommended, every warning an error). Offline: the
 * linter's telemetry and update check are off, and it reads nothing but the file and the config.
 *
 *   pnpm exec tsx scripts/lint-openapi.ts        (a few seconds; run by scripts/test)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, stop } from './bench-support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp/openapi.json');

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-openapi-'));
  const cloud = await startProcess(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'apps/cloud/src/main.ts')],
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', POD_NAME: 'openapi-lint' },
    /listening on (http:\/\/\S+)/,
  );
  try {
    const res = await fetch(`${cloud.url}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(await res.json(), null, 2) + '\n');
  } finally {
    await stop(cloud.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const lint = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', '--config', path.join(root, 'redocly.yaml'), out], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    },
  });
  if (lint.error) throw lint.error;
  return lint.status ?? 1;
}

main().then(
  (status) => process.exit(status),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
