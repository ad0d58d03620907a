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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedDocument } from './openapi-document.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp/openapi.json');

async function main(): Promise<number> {
  const doc = await servedDocument('openapi-lint');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
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
