import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compareVersions } from '@vend/protocol';
import { LAUNCHER, VERSION_FILE, treeVersion } from './layout.ts';
import { Refusal } from './refusal.ts';

/** Runs the staged tree once: resolves when it works on this machine, throws why not. */
export type SelfTest = (tree: string, version: string, timeoutMs: number) => Promise<void>;

/** Runs `<tree>/bin/vend-agent --version`; it must print `version`. */
export function launcherSelfTest(tree: string, version: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(tree, LAUNCHER),
      ['--version'],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, cwd: tree },
      (err, stdout, stderr) => {
        if (err)
          return reject(
            new Error(`bin/vend-agent --version failed: ${err.message.split('\n')[0]}${stderr ? ` (${String(stderr).trim().slice(0, 300)})` : ''}`),
          );
        const out = String(stdout).trim();
        if (out !== version) return reject(new Error(`bin/vend-agent --version printed ${JSON.stringify(out.slice(0, 80))}, not ${version}`));
        resolve();
      },
    );
  });
}

/** The staged tree declares the offered version and its launcher runs on this machine (a Refusal `bad-tree` if not). */
export async function verifyStagedTree(tree: string, version: string, selfTest: SelfTest, timeoutMs: number): Promise<void> {
  const declared = await treeVersion(tree);
  if (declared === null || compareVersions(declared, version) !== 0) {
    throw new Refusal('bad-tree', `the artifact's ${VERSION_FILE} says ${declared ?? 'nothing usable'}, not ${version}`);
  }
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(path.join(tree, LAUNCHER));
  } catch {
    throw new Refusal('bad-tree', `the artifact has no ${LAUNCHER}`);
  }
  if (!st.isFile() || (st.mode & 0o100) === 0) throw new Refusal('bad-tree', `${LAUNCHER} in the artifact is not an executable file`);
  try {
    await selfTest(tree, version, timeoutMs);
  } catch (err) {
    throw new Refusal('bad-tree', `the staged tree does not run here: ${(err as Error).message}`);
  }
}
