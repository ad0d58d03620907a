import createClient from 'openapi-fetch';
import type { paths } from './api-schema.d.ts';

/**
 * The console's one way to the cloud: openapi-fetch over the types generated from /openapi.json. The session cookie
 * goes along (same origin only) with the CSRF token the cloud put in the page's `<meta name="csrf-token">`.
 */
export type Api = ReturnType<typeof createClient<paths>>;

export function csrfToken(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export function createApi(token: string): Api {
  return createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin', headers: { 'X-CSRF-Token': token } });
}

/** An answer the API refused, in words: its envelope's message first, then the reasons its data lists. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The words of a refusal: the envelope's message (the service puts the reasons in it: `…: body.sellingPrice: …`). */
export function refusalText(status: number, body: unknown): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '' ? message : `The service answered ${status}`;
}

/**
 * The data of a successful answer, or an ApiError in words. A 401 means the session ended: the browser goes to the
 * sign-in page and comes back here after it.
 */
export function unwrap<T>(r: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (r.response.ok && r.data !== undefined) return r.data.data;
  if (r.response.status === 401) location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
  throw new ApiError(r.response.status, refusalText(r.response.status, r.error));
}
