import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { ALICE } from '../gateway/gateway.test-support.ts';
import type { SettingsData } from './cabinet-settings.schemas.ts';

const SCREEN = 'http://127.0.0.1:8770/screen/';

describe.each(DIALECTS)('the /kiosk/<serial> page on %s', (dialect) => {
  const t = suiteServer(dialect);
  /** A browser with no key: pages are not operations of the API document, so plain fetch (not `call`). */
  const open = async (path: string) => {
    const res = await fetch(t.url + path);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  it('answers a page, with no key, saying the screen runs on the cabinet at the address its configuration block names', async () => {
    const r = await open('/kiosk/SBX-ALICE-0001');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.text).toContain('<title>Cabinet SBX-ALICE-0001: its screen runs on the cabinet</title>');
    expect(r.text).toContain(`<code>${SCREEN}</code>`);
    // the address it names is the one every cabinet's configuration block now defaults to
    const settings = await expectStatus<SettingsData>(call(t.url, 'GET', '/api/v1/machines/SBX-ALICE-0001/cabinet-settings', { headers: ALICE }), 200);
    expect(settings.body.data.settings.kioskUiUrl).toBeNull();
    expect(settings.body.data.config.kioskUiUrl).toBe(SCREEN);
    // where an operator sees the machine: the API's operations for it, linked into the reference page
    expect(r.text).toContain('GET /api/v1/machines/SBX-ALICE-0001</code>');
    expect(r.text).toContain('GET /api/v1/machines/SBX-ALICE-0001/operator-view</code>');
    const doc = (await call<Record<string, unknown>>(t.url, 'GET', '/openapi.json')).body;
    const ids = Object.values(doc['paths'] as Record<string, Record<string, { operationId: string; tags: string[] }>>).flatMap((item) =>
      Object.values(item).map((op) => `/docs#/${op.tags[0]}/${op.operationId}`),
    );
    const links = [...r.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    for (const deep of links.filter((l) => l.startsWith('/docs#'))) expect(ids).toContain(deep);
    expect(links.filter((l) => l.startsWith('/docs#'))).toHaveLength(2);
  });

  it('loads nothing from elsewhere and runs no script; every link and asset is on this service and answers', async () => {
    const r = await open('/kiosk/SBX-ALICE-0001');
    expect(r.text).not.toMatch(/<script|<iframe|<img/i);
    const refs = [...r.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^(\/[^/\\]|#)/);
      if (ref.startsWith('/')) expect((await fetch(t.url + ref.split('#')[0]!)).status, ref).toBe(200);
    }
  });

  it('holds no secret and reveals nothing stored: a registered cabinet and an unknown serial get the same page', async () => {
    const known = (await open('/kiosk/SBX-ALICE-0001')).text.replaceAll('SBX-ALICE-0001', 'SERIAL');
    const unknown = await open('/kiosk/NEVER-SEEN-0001');
    expect(unknown.status).toBe(200);
    expect(unknown.text.replaceAll('NEVER-SEEN-0001', 'SERIAL')).toBe(known);
    for (const secret of [SANDBOX_CREDENTIALS.alice.apiKey, t.ctx.config.dataKey, 'Lobby kiosk', 'Union Station', 'adminPin'])
      expect(known).not.toContain(secret);
  });

  it('a path that is no serial is a 404 page that does not repeat it', async () => {
    for (const bad of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'short', 'x'.repeat(40), 'a%20b']) {
      const r = await open(`/kiosk/${bad}`);
      expect(r.status, bad).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('No cabinet has this address');
      expect(r.text).not.toContain(decodeURIComponent(bad));
    }
  });
});
