import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CSRF_META } from '../../http/page-session-auth.ts';

/**
 * The console's built files (docs/decisions/console.md): `index.html` and the assets beside it, read from
 * the configured directory on each request (a rebuild shows at the next load; they are small), each with
 * a strong ETag of its bytes.
 */

/** The asset names served under /console/assets/: one plain file name, one of these types. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.[A-Za-z0-9_-]{1,32})*\.([a-z0-9]{2,5})$/;

export interface ConsoleFile {
  bytes: Buffer;
  etag: string;
  contentType: string;
}

/** The content type of an asset name the allow-list admits; null for anything else (a path, a dotfile, index.html, …). */
export function assetType(name: string): string | null {
  const m = ASSET_NAME.exec(name);
  return m ? (ASSET_TYPES[m[2]!] ?? null) : null;
}

function etagOf(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

export class ConsoleFiles {
  constructor(readonly dir: string) {}

  /** Whether the build is there: its index.html is readable. */
  async built(): Promise<boolean> {
    try {
      return (await fs.stat(path.join(this.dir, 'index.html'))).isFile();
    } catch {
      return false;
    }
  }

  /** An allow-listed asset of the build; null when the name is refused or the file is absent. */
  async asset(name: string): Promise<ConsoleFile | null> {
    const contentType = assetType(name);
    if (!contentType) return null;
    try {
      const bytes = await fs.readFile(path.join(this.dir, name));
      return { bytes, etag: etagOf(bytes), contentType };
    } catch {
      return null;
    }
  }

  /** index.html with the session's CSRF token in `<meta name="csrf-token">` (first thing in <head>); null when absent. */
  async index(csrfToken: string): Promise<string | null> {
    let text: string;
    try {
      text = await fs.readFile(path.join(this.dir, 'index.html'), 'utf8');
    } catch {
      return null;
    }
    return injectMeta(text, csrfToken);
  }
}

/** Puts the meta tag right after `<head …>` (before any script can run), or first in a document without one. */
export function injectMeta(indexHtml: string, csrfToken: string): string {
  // base64url: nothing to escape, but refuse anything else rather than trust it
  if (!/^[A-Za-z0-9_-]+$/.test(csrfToken)) throw new Error('CSRF token is not base64url');
  const meta = `<meta name="${CSRF_META}" content="${csrfToken}">`;
  const head = /<head(\s[^>]*)?>/i.exec(indexHtml);
  if (!head) return `${meta}${indexHtml}`;
  const at = head.index + head[0].length;
  return `${indexHtml.slice(0, at)}${meta}${indexHtml.slice(at)}`;
}
