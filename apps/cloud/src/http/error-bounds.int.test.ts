import { describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../db/seed.ts';
import { call, DIALECTS, suiteServer } from '../testing/harness.ts';
import { MESSAGE_BOUNDS } from './error-middleware.ts';

// Issue 10: an error message says enough to fix the request and is never a copy of it. A body of
// 50,000 unknown keys answered a 589 KB message before the bound.
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const BAD_REQUEST = 'Bad request — invalid or missing parameters';
/** The longest message the bounds allow: the catalogue text, ten issues and the count, well under this. */
const MAX_BYTES = 3 * 1024;

describe.each(DIALECTS)('bounded error messages (%s)', (dialect) => {
  const t = suiteServer(dialect);

  it('answers a body of 50,000 unknown keys with a short 400 naming a few of them', async () => {
    const body: Record<string, unknown> = { serialNumber: 'SBX-NEW-00000001' };
    for (let i = 0; i < 50_000; i++) body[`k${i}`] = i; // about 600 KB: under the 1 MB body limit
    const r = await call(t.url, 'POST', '/api/v1/machines/register', { headers: alice, json: body });
    expect(r.status).toBe(400);
    expect(Buffer.byteLength(r.text)).toBeLessThan(MAX_BYTES);
    expect(r.body.code).toBe(400);
    expect(r.body.data).toBeNull();
    expect(r.body.message.startsWith(`${BAD_REQUEST}: `)).toBe(true);
    expect(r.body.message).toContain('"k0"');
    expect(r.body.message).not.toContain('"k49999"');
    expect(r.body.message).toMatch(/…/);
  });

  it('lists the first ten of 1,000 out-of-rule values, then counts the rest (400)', async () => {
    const r = await call(t.url, 'POST', '/api/v1/inventory/machines/SBX-ALICE-0001/restock', { headers: alice, json: { aisles: Array(1000).fill(0) } });
    expect(r.status).toBe(400);
    expect(Buffer.byteLength(r.text)).toBeLessThan(MAX_BYTES);
    expect(r.body.message.startsWith(`${BAD_REQUEST}: body.aisles.0: `)).toBe(true);
    expect(r.body.message).toContain('body.aisles.9: ');
    expect(r.body.message).not.toContain('body.aisles.10: ');
    expect(r.body.message).toMatch(/; … and 990 more$/);
  });

  it('keeps the 400/422 split: 1,000 values of the wrong type answer a short 422', async () => {
    const r = await call(t.url, 'POST', '/api/v1/inventory/machines/SBX-ALICE-0001/restock', { headers: alice, json: { aisles: Array(1000).fill('one') } });
    expect(r.status).toBe(422);
    expect(Buffer.byteLength(r.text)).toBeLessThan(MAX_BYTES);
    expect(r.body.message.startsWith('Validation error: body.aisles.0: ')).toBe(true);
    expect(r.body.message).toMatch(/; … and 990 more$/);
  });

  it('cuts one enormous issue (a 100,000-character key) to its bound', async () => {
    const r = await call(t.url, 'POST', '/api/v1/machines/register', { headers: alice, json: { serialNumber: 'SBX-NEW-00000001', ['k'.repeat(100_000)]: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.message.startsWith(`${BAD_REQUEST}: `)).toBe(true);
    const issues: string[] = r.body.message.slice(`${BAD_REQUEST}: `.length).split('; ');
    for (const issue of issues) expect(issue.length).toBeLessThanOrEqual(MESSAGE_BOUNDS.issueChars);
    expect(issues.some((i) => i.startsWith('body: Unrecognized key') && i.endsWith('…'))).toBe(true);
  });

  it('bounds the 404 of an unknown route, which echoes the path', async () => {
    const r = await call(t.url, 'GET', `/no-such-route/${'x'.repeat(8000)}`);
    expect(r.status).toBe(404);
    expect(Buffer.byteLength(r.text)).toBeLessThan(MAX_BYTES);
    expect(r.body.message.startsWith('No route for GET /no-such-route/xxx')).toBe(true);
  });
});
