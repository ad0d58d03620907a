import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../http/webhook-signature.ts';

const DOC = fileURLToPath(new URL('../../../../../docs/webhooks-outbound.md', import.meta.url));

describe('docs/webhooks-outbound.md worked example', () => {
  it('its signature is the one the delivery loop computes for its secret, timestamp and body', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    const example = doc.slice(doc.indexOf('## Worked example'));
    const secret = /Secret: `([^`]+)`/.exec(example)?.[1];
    const timestamp = /X-Vend-Timestamp: (\d+)/.exec(example)?.[1];
    const body = /Body[^\n]*\n\n```\n([^\n]+)\n```/.exec(example)?.[1];
    const signature = /X-Vend-Signature: (v1=[0-9a-f]{64})/.exec(example)?.[1];
    expect([secret, timestamp, body, signature].every((x) => x !== undefined)).toBe(true);
    expect(signWebhook(secret!, timestamp!, body!)).toBe(signature);
    expect(new Date(Number(timestamp) * 1000).toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });
});
