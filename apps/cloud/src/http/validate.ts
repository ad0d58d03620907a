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
  return throwIssues(refusalOf(result.error), issues);
}

/** How spec 1 §7 refuses input a schema did not take: `validation` (422) for a malformed type, else `bad_request` (400). */
export function refusalOf(error: z.ZodError): 'validation' | 'bad_request' {
  return error.issues.some(isMalformed) ? 'validation' : 'bad_request';
}

/** JSON's own type of a value: what a schema's `type` names. */
const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * A malformed type (422): a value of the wrong JSON type where one was given — `invalid_type`; an enum or constant
 * (`invalid_value`) none of whose values has the given value's type (`7` where `"cola" | "water"` belongs); a union
 * none of whose branches takes the value's type (a string where an object or an array belongs), or whose
 * discriminator is of another type than every option's. A value of the right type that breaks a rule (outside the
 * enum, too long) is out of rule (400).
 */
function isMalformed(issue: z.core.$ZodIssue): boolean {
  const input = (issue as { input?: unknown }).input;
  if (input === undefined) return false;
  if (issue.code === 'invalid_type') return true;
  if (issue.code === 'invalid_value') return !issue.values.some((v) => jsonType(v) === jsonType(input));
  if (issue.code !== 'invalid_union') return false;
  const { discriminator, options } = issue as { discriminator?: string; options?: unknown[] };
  if (discriminator !== undefined && options?.length) {
    const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[discriminator] : undefined;
    return value !== undefined && !options.some((o) => jsonType(o) === jsonType(value));
  }
  // the branches the value fits (none of their properties missing), else all of them: none takes it without a
  // value of another type
  const fitting = issue.errors.filter((branch) => !branch.some((i) => i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined));
  const judged = fitting.length ? fitting : issue.errors;
  return judged.length > 0 && judged.every((branch) => branch.some(isMalformed));
}

function throwIssues(code: 'validation' | 'bad_request', issues: FieldIssue[]): never {
  throw new AppError(code, ERROR_TABLE[code].message, { issues });
}
