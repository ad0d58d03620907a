import { z } from 'zod';
import { SCOPES } from '../../http/scopes.ts';
import { line } from '../machines/machines.schemas.ts';
import { emailLine } from '../auth/auth.schemas.ts';

export const CreateAccountBody = z.object({
  email: emailLine(),
  name: line('name', 100).pipe(z.string().min(1, 'name must not be empty')),
  /** Optional: an account without one signs in by API key (or a social/IdP identity) only. */
  password: z.string().min(10).max(1024).optional(),
  admin: z.boolean().default(false),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
    .optional()
    .describe('Defaults to USD for operators; admins have none'),
});
export type CreateAccountBody = z.infer<typeof CreateAccountBody>;

export const AccountData = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  admin: z.boolean(),
  currency: z.string().nullable(),
  passwordSet: z.boolean(),
  createdAt: z.string().nullable(),
  apiKey: z
    .object({
      id: z.string(),
      key: z.string().describe('The full key: shown this once, stored only hashed'),
      scopes: z.array(z.enum(SCOPES)),
      rateLimit: z.number().int(),
    })
    .describe('A standard operator key'),
});
export type AccountData = z.infer<typeof AccountData>;
