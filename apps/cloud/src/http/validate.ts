import type { z } from 'zod';
import { AppError, ERROR_TABLE, type FieldIssue } from './errors.ts';

/**
 * Parses request input with a zod schema. Malformed types (a string where a number belongs, an
 * array for an object) are 422; missing or out-of-rule values are 400 — the spec's split.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' | 'headers'): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  const malformed = result.error.issues.some((i) => i.code === 'invalid_type' && (i as { input?: unknown }).input !== undefined);
  if (malformed) return throwIssues('validation', issues);
  return throwIssues('bad_request', issues);
}

function throwIssues(code: 'validation' | 'bad_request', issues: FieldIssue[]): never {
  throw new AppError(code, ERROR_TABLE[code].message, { issues });
}
