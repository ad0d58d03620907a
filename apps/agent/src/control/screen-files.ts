import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuse } from './respond.ts';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
};
/** One file name of the screen's build: no directories, no dot files. */
const FILE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The page's policy: it runs only its own script, talks only to this channel, and shows media from here or
 * the cloud (an ad not cached yet) and pictures from those or any https address (an operator may name a
 * product picture anywhere; a picture cannot script). No frame may hold it.
 */
export function screenPolicy(cloudOrigin: string | null): string {
  const remote = cloudOrigin ? ` ${cloudOrigin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src 'self' data: https:${remote}`,
    `media-src 'self'${remote}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The kiosk's screen (docs/kiosk-screen.md), served from the release tree's `screen/` folder: the page
 * the kiosk's browser opens, `http://127.0.0.1:8770/screen/`. It works with no cloud at all. GET and
 * HEAD only; `no-cache` with an ETag, so an upgrade's new screen shows at the next load.
 */
export async function serveScreen(req: IncomingMessage, res: ServerResponse, path: string, dir: string | null, cloudOrigin: string | null): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return refuse(res, 405, 'method-not-allowed', 'the screen is read with GET');
  if (!dir) return refuse(res, 404, 'not-found', 'this agent has no screen (the release tree holds it in screen/; set screenDir)');
  if (path === '/screen') {
    res.writeHead(301, { location: '/screen/', 'content-length': 0 });
    res.end();
    return;
  }
  const name = path === '/screen/' ? 'index.html' : path.slice('/screen/'.length);
  const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
  if (!FILE.test(name) || !type) return refuse(res, 404, 'not-found', `no ${path} on the screen`);
  let body: Buffer;
  let etag: string;
  try {
    const file = join(dir, name);
    const st = await stat(file);
    etag = `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`;
    body = await readFile(file);
  } catch {
    return refuse(res, 404, 'not-found', `no ${path} on the screen`);
  }
  const headers: Record<string, string | number> = {
    'content-type': type,
    etag,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': screenPolicy(cloudOrigin),
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': body.length });
  res.end(method === 'HEAD' ? undefined : body);
}
