import fs from 'node:fs';
import { expect, it } from 'vitest';
import { CONSOLE_API_SCHEMA } from '@vend/console';
import { renderSchema } from './gen-console-api.ts';
import { servedDocument } from './openapi-document.ts';

// The console's typed client (apps/console/src/api-schema.d.ts) is the document the cloud serves, rendered: a route or
// schema changed without regenerating it (`pnpm exec tsx scripts/gen-console-api.ts`) fails here, and a page that
// still calls the old shape then fails the console's typecheck.
it('the committed console API schema is the one the served /openapi.json generates', async () => {
  const text = await renderSchema(await servedDocument('console-api-test'));
  const committed = fs.readFileSync(CONSOLE_API_SCHEMA, 'utf8');
  if (committed !== text) {
    const a = committed.split('\n');
    const b = text.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    expect.fail(`apps/console/src/api-schema.d.ts differs from the served document from line ${line + 1}: regenerate it with scripts/gen-console-api.ts`);
  }
}, 60_000);

it('a changed document renders a different schema (the check can fail)', async () => {
  const doc = { openapi: '3.1.0', info: { title: 't', version: 'v1' }, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } };
  const changed = { ...doc, paths: { '/b': doc.paths['/a'] } };
  expect(await renderSchema(doc)).not.toBe(await renderSchema(changed));
});
