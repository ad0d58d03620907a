/**
 * P&L benchmark (issue 13): runs `apps/cloud/src/bench/pnl.bench.ts`, which builds the cloud in its own
 * process with a manual clock to record 90 days of history (scripts import packages only through their exports).
 *
 *   npx tsx scripts/bench-pnl.ts [salesPerMachinePerDay]
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const r = spawnSync(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'apps/cloud/src/bench/pnl.bench.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exitCode = r.status ?? 1;
