import { createRequire } from 'node:module';
import path from 'node:path';
import type { Response } from 'express';
import { escapeHtml } from '../../http/html.ts';
import { docsInitScript } from './docs-init.ts';

/**
 * The interactive API reference: Swagger UI from the `swagger-ui-dist` package, served by this
 * service (no CDN, nothing fetched from elsewhere), reading `/openapi.json`.
 */

/** Only self: scripts, styles, fonts and calls. Images also as `data:` URLs — the stylesheet draws its icons that way. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The package files the page uses, and their types: nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The page's own few rules (a file: the policy allows no inline style). Link colour chosen for contrast
 * (WCAG AA, ≥ 4.5:1): 5.8:1 on the note's yellow, 6.5:1 on white; underlined, so not told by colour alone.
 */
export const PAGE_CSS = `body{margin:0}
#sandbox-note{font:14px/1.4 system-ui,sans-serif;margin:0;padding:.6rem 1.25rem;background:#fff3cd;color:#3b4151;border-bottom:1px solid #e8d9a0}
#sandbox-note a,.docs-links a{color:#1d5fa8;text-decoration:underline}.docs-links{font:14px system-ui,sans-serif;margin:0;padding:.6rem 1.25rem}
`;

export interface DocsUi {
  /** Where the assets live, versioned (`/docs/assets/5.32.15`): a new package version is a new URL, so they may be cached for a year. */
  assetBase: string;
  /** Sends one of the package's assets; false when `file` is not one of them. */
  sendAsset(res: Response, file: string): boolean;
  /** The page's start-up script: Swagger UI on `/openapi.json`, with the key preset when given. */
  initScript(presetApiKey: string | null): string;
  /** The page. */
  page(title: string, opts: { sandbox: boolean; fallback: string }): string;
}

/** Finds the installed package (at construction, never at import). */
export function createDocsUi(): DocsUi {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('swagger-ui-dist/package.json');
  const dir = path.dirname(pkgFile);
  const version = (require(pkgFile) as { version: string }).version;
  const assetBase = `/docs/assets/${version}`;
  const esc = escapeHtml;

  return {
    assetBase,
    sendAsset(res, file) {
      const type = ASSETS[file];
      if (!type) return false;
      res.sendFile(path.join(dir, file), {
        maxAge: 365 * 24 * 3600 * 1000,
        immutable: true,
        dotfiles: 'allow', // the package's path runs through node_modules/.pnpm; the file name is from the list above
        headers: { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff' },
      });
      return true;
    },
    initScript: docsInitScript,
    page(title, { sandbox, fallback }) {
      const note = sandbox
        ? `<p id="sandbox-note">Sandbox: “Try it out” calls are pre-authorised with alice’s sandbox API key (see docs/sandbox.md for the others). Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>`
        : `<p class="docs-links">Machine-readable: <a href="/openapi.json">/openapi.json</a>.</p>`;
      return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${assetBase}/swagger-ui.css">
<link rel="stylesheet" href="/docs/page.css">
<link rel="icon" type="image/png" href="${assetBase}/favicon-32x32.png">
</head>
<body>
<header>${note}</header>
<div id="swagger-ui"></div>
<noscript><main>${fallback}</main></noscript>
<script src="${assetBase}/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
    },
  };
}
