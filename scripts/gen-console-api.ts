/**
 * Generates the console's typed API client schema (apps/console/src/api-schema.d.ts, committed) from the OpenAPI
 * document the cloud serves: starts the cloud (SQLite in a temp dir, a random port on 127.0.0.1), reads its
 * `/openapi.json`, and renders it with openapi-typescript, formatted with the repo's prettier settings.
 *
 *   pnpm exec tsx scripts/gen-console-api.ts          write the file
 *   pnpm exec tsx scripts/gen-console-api.ts --check  exit 1 when the committed file differs (scripts/console-api.test.ts does the same)
 *
 * The document is read from a started cloud (scripts/openapi-document.ts): a few seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { CONSOLE_API_SCHEMA } from '@vend/console';
import { servedDocument } from './openapi-document.ts';

const HEADER = `/**
 * The cloud's operator API as types, generated from its /openapi.json by scripts/gen-console-api.ts — do not edit.
 * scripts/console-api.test.ts fails when this file and the document the service serves differ.
 */

`;

/** The schema file's text for a document: openapi-typescript's output, prettier-formatted as the repo formats. */
export async function renderSchema(doc: Record<string, unknown>): Promise<string> {
  // the servers entry names the port of the process the document came from: not part of the contract
  const stable = { ...doc, servers: [{ url: '/' }] };
  const ast = await openapiTS(stable as Parameters<typeof openapiTS>[0], { alphabetize: true, silent: true });
  const options = (await prettier.resolveConfig(CONSOLE_API_SCHEMA)) ?? {};
  return prettier.format(HEADER + astToString(ast), { ...options, filepath: CONSOLE_API_SCHEMA });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await renderSchema(await servedDocument('console-api'));
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(CONSOLE_API_SCHEMA) && fs.readFileSync(CONSOLE_API_SCHEMA, 'utf8') === text;
    process.stdout.write(same ? 'gen-console-api: up to date\n' : `gen-console-api: ${CONSOLE_API_SCHEMA} differs from the served document\n`);
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(CONSOLE_API_SCHEMA, text);
  process.stdout.write(`gen-console-api: ${CONSOLE_API_SCHEMA} written (${(text.length / 1024).toFixed(0)} KiB)\n`);
}
