import fs from 'node:fs';
import path from 'node:path';
import { isDottedVersion } from '@vend/protocol';

/**
 * The install root on disk (docs/agent-upgrades.md):
 *
 *     <root>/current/            the release tree that runs (VERSION, bin/vend-agent, runtime/, lib/, prebuilds/)
 *     <root>/previous/           the tree it replaced, kept for rollback
 *     <root>/upgrade/journal.json  the upgrade journal (state, versions, floor, bad versions, last outcome)
 *     <root>/upgrade/download/   the artifact being downloaded (<version>.tar.gz.part)
 *     <root>/staging-<v>-XXXXXX/ a fresh 0700 extraction directory (transient)
 *     <root>/trash-XXXXXX/, <root>/failed-<v>-XXXXXX/   trees on their way out (transient)
 *
 * Every tree sits directly under the root, so a swap is two renames inside one directory.
 */
export interface Layout {
  root: string;
  current: string;
  previous: string;
  stateDir: string;
  journal: string;
  downloads: string;
}

export function layoutOf(root: string): Layout {
  const resolved = path.resolve(root);
  const stateDir = path.join(resolved, 'upgrade');
  return {
    root: resolved,
    current: path.join(resolved, 'current'),
    previous: path.join(resolved, 'previous'),
    stateDir,
    journal: path.join(stateDir, 'journal.json'),
    downloads: path.join(stateDir, 'download'),
  };
}

/** Prefixes of the transient directories under the root (cleaned when no install is in flight). */
export const TRANSIENT_PREFIXES = ['staging-', 'trash-', 'failed-'] as const;

/** The file at the top of every release tree naming its version. */
export const VERSION_FILE = 'VERSION';
/** V8's code cache of the tree's files, written by the tree's own runs (release-entry.ts): never in an artifact. */
export const CODE_CACHE_DIR = 'compile-cache';
/** The launcher every release tree carries (what systemd and the boot guard run). */
export const LAUNCHER = path.join('bin', 'vend-agent');

/**
 * The version a release tree declares in its VERSION file, or null when the tree is missing, the file
 * is missing, or it does not hold a dotted-numeric version (a tree that could not be the one to run).
 */
export async function treeVersion(dir: string): Promise<string | null> {
  try {
    const text = await fs.promises.readFile(path.join(dir, VERSION_FILE), 'utf8');
    const trimmed = text.trim();
    return isDottedVersion(trimmed) && text.length <= 80 ? trimmed : null;
  } catch {
    return null;
  }
}

/**
 * The release tree a bundled agent runs from: the directory above the bundle's `lib/`
 * (`<tree>/lib/vend-agent.cjs`). Used by the packaged entry to find its VERSION file.
 */
export function releaseTreeOfBundle(bundlePath: string): string {
  return path.resolve(path.dirname(bundlePath), '..');
}
