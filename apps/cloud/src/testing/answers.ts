import { expect } from 'vitest';
import type { Envelope } from '../http/envelope.ts';
import type { ApiResponse } from './harness.ts';

/**
 * Reading the API's answers in tests (issue 31: one copy of each check). `call<Body<T>>(…)` types an
 * answer's envelope with its success data; `okData` takes that data from a 200, `expectRefused` checks
 * an error envelope, `expectStatus` checks any status and the envelope's code.
 */

/** An answer's envelope as a test reads it: `data` typed as a success's (a refusal's is null: see `expectRefused`). */
export type Body<T = unknown> = Omit<Envelope<T>, 'data'> & { data: T };

/** An API answer as `call()` returns it. */
export type Answer<T = unknown> = ApiResponse<Body<T>>;

/** The data of a 200 answer; fails showing the answer's text otherwise. */
export function okData<T>(r: Pick<Answer<T>, 'status' | 'text' | 'body'>): T {
  expect(r.status, r.text).toBe(200);
  return r.body.data;
}

/** A refusal: `status`, the error envelope `{ code: status, message, data: null }`, and its message matching `message` when given. */
export function expectRefused(r: Pick<ApiResponse<unknown>, 'status' | 'text' | 'body'>, status: number, message?: string | RegExp): void {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toEqual({ code: status, message: expect.any(String), data: null });
  if (message !== undefined) expect((r.body as Body).message).toMatch(message);
}

/** Awaits an answer and checks its status (failing with the answer's text) and its envelope's code. */
export async function expectStatus<T = unknown>(r: Promise<Answer<T>>, status: number): Promise<Answer<T>> {
  const res = await r;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  expect(res.body.code).toBe(status);
  return res;
}
