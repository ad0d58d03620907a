import { z } from 'zod';
import { SCOPES } from '../../http/scopes.ts';
import { line } from '../machines/machines.schemas.ts';

// --- requests --------------------------------------------------------------------------------

/** The token endpoint's form (documentation only: the route reads it with RFC 6749's error rules). */
export const TokenForm = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().optional().describe('Omit when authenticating with HTTP Basic'),
  client_secret: z.string().optional().describe('Omit when authenticating with HTTP Basic'),
  scope: z.string().optional().describe("Space-separated; may only narrow the client's scopes"),
});

/**
 * An email address: trimmed, refused when it holds a control character or a lone surrogate (a NUL
 * would otherwise reach PostgreSQL, which cannot store it, as a 500), then checked as an address.
 */
export const emailLine = () => line('email', 254).pipe(z.email('email must be an email address'));

export const LoginBody = z.object({
  email: emailLine(),
  password: z.string().min(1).max(1024),
});

export const SocialLoginBody = z.object({
  idToken: z.string().min(1).max(8192).describe("The identity provider's ID token (a JWT)"),
});

const Ticket = z.string().min(1).max(256).describe('The ticket from /api/v1/auth/login or /login/social');

export const TicketBody = z.object({ ticket: Ticket });

/** Six digits; spaces (as authenticator apps group them) are ignored. */
const TotpCode = z
  .string()
  .max(16)
  .regex(/^\s*(?:\d\s*){6}$/, 'must be 6 digits')
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be 6 digits'));

export const CodeBody = z.object({ ticket: Ticket, code: TotpCode });

export const RecoveryBody = z.object({
  ticket: Ticket,
  recoveryCode: z.string().min(1).max(64).describe('One of the codes shown at enrolment; case, spaces and hyphens ignored'),
});

// --- responses -------------------------------------------------------------------------------

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string().describe('Space-separated'),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

const OperatorSummary = z.object({ email: z.string(), name: z.string(), admin: z.boolean() });

export const ChallengeData = z.object({
  mfaRequired: z.boolean().describe('MFA is enrolled: answer with /mfa/verify or /mfa/recovery'),
  mfaEnrollmentRequired: z.boolean().describe('MFA is not enrolled yet: /mfa/enroll/start, then /mfa/enroll/confirm'),
  ticket: z.string(),
  expiresIn: z.number().int().describe('Seconds the ticket stays valid'),
  methods: z.array(z.enum(['totp', 'recovery_code'])),
  operator: OperatorSummary,
});
export type ChallengeData = z.infer<typeof ChallengeData>;

export const EnrollStartData = z.object({
  secret: z.string().describe('Base32 TOTP secret'),
  otpauthUrl: z.string(),
  algorithm: z.literal('SHA1'),
  digits: z.literal(6),
  period: z.literal(30),
});
export type EnrollStartData = z.infer<typeof EnrollStartData>;

export const SessionData = z.object({
  token: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  scope: z.string().describe('Space-separated'),
  operator: OperatorSummary,
});
export type SessionData = z.infer<typeof SessionData>;

export const EnrolledData = SessionData.extend({
  recoveryCodes: z.array(z.string()).describe('Shown once; each signs in once via /mfa/recovery'),
});
export type EnrolledData = z.infer<typeof EnrolledData>;

export const RecoveredData = SessionData.extend({ recoveryCodesRemaining: z.number().int() });
export type RecoveredData = z.infer<typeof RecoveredData>;

export const MeData = z.object({
  userId: z.string(),
  operatorEmail: z.string(),
  admin: z.boolean(),
  scopes: z.array(z.enum(SCOPES)),
  authMethod: z.enum(['api_key', 'oauth', 'session', 'jwt', 'access']),
  currency: z.string().nullable().describe('Null for full admins'),
});
export type MeData = z.infer<typeof MeData>;

export const CredentialsData = z.object({
  apiKeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      key: z.string().describe('Masked: the key id and never the secret'),
      scopes: z.array(z.enum(SCOPES)),
      rateLimit: z.number().int().describe('Requests per hour'),
      plant: z.string().nullable(),
      createdAt: z.string().nullable(),
      revoked: z.boolean(),
    }),
  ),
  oauthClients: z.array(
    z.object({
      clientId: z.string(),
      name: z.string(),
      clientSecret: z.string().describe('Masked'),
      scopes: z.array(z.enum(SCOPES)),
      rateLimit: z.number().int().describe('Requests per hour'),
      createdAt: z.string().nullable(),
      revoked: z.boolean(),
    }),
  ),
});
export type CredentialsData = z.infer<typeof CredentialsData>;
