import { describe, expect, it } from 'vitest';
import { ApiDocs } from '../../http/api-docs.ts';
import { MEDIA_LIMITS } from './media-probe.ts';
import type { CreativesService } from './creatives.service.ts';
import { UPLOAD_BODY_LIMIT, mediaRoutes } from './media.routes.ts';

describe('the public creative routes in the API document', () => {
  const docs = new ApiDocs();
  mediaRoutes({ docs, access: () => [] }, {} as CreativesService);
  const paths = docs.document().paths as Record<string, { get: { operationId: string; security: unknown[]; responses: Record<string, unknown> } }>;

  it('declares both without a key, answering 404, with plain operation ids', () => {
    expect(Object.keys(paths)).toEqual(['/media/{file}', '/advertise/poster/{machineNo}.png']);
    for (const [p, { get }] of Object.entries(paths)) {
      expect(get.operationId, p).toMatch(/^[A-Za-z0-9]+$/);
      expect(get.security, p).toEqual([]);
      expect(Object.keys(get.responses), p).toContain('404');
    }
  });
});

describe('the upload body limit', () => {
  it('holds a 60 MB video as base64 with its JSON around it', () => {
    const base64 = Math.ceil(MEDIA_LIMITS.videoMaxBytes / 3) * 4;
    expect(UPLOAD_BODY_LIMIT).toBeGreaterThan(base64 + JSON.stringify({ contentType: 'video/mp4', dataBase64: '' }).length);
    expect(UPLOAD_BODY_LIMIT).toBeLessThan(base64 * 1.01);
  });
});
