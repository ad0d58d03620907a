/**
 * Test support for the auth suites: OAuth and sign-in calls, TOTP codes from an independent
 * generator, and a local identity provider (a JWKS over node:http on 127.0.0.1).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { DB } from '../../db/schema.ts';
import { call, type ApiResponse, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';

export interface OAuthBody {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

/** POST /oauth/token with a form body built from `fields` (or a raw string). */
export function tokenRequest(t: TestServer, fields: Record<string, string> | string, headers: Record<string, string> = {}): Promise<ApiResponse<OAuthBody>> {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  return call<OAuthBody>(t.url, 'POST', '/oauth/token', { headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
}

export function basicAuth(id: string, secret: string): string {
  const enc = (s: string) => new URLSearchParams({ s }).toString().slice(2);
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The code an authenticator app shows at `ms` (otpauth's generator: not the code under test). */
export function totpAt(base32: string, ms: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(base32), algorithm: 'SHA1', digits: 6, period: 30, timestamp: ms });
}

export interface Challenge {
  mfaRequired: boolean;
  mfaEnrollmentRequired: boolean;
  ticket: string;
  expiresIn: number;
  methods: string[];
  operator: { email: string; name: string; admin: boolean };
}

export interface Session {
  token: string;
  tokenType: string;
  expiresIn: number;
  scope: string;
  operator: { email: string; name: string; admin: boolean };
  recoveryCodes?: string[];
  recoveryCodesRemaining?: number;
}

export interface Me {
  userId: string;
  operatorEmail: string;
  admin: boolean;
  scopes: string[];
  authMethod: string;
  currency: string | null;
}

export function post<T>(t: TestServer, path: string, json: unknown, headers: Record<string, string> = {}) {
  return call<Body<T>>(t.url, 'POST', path, { json, headers });
}

export async function login(t: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<Challenge> {
  const r = await post<Challenge>(t, '/api/v1/auth/login', { email, password }, headers);
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${r.text}`);
  return r.body.data;
}

export function me(t: TestServer, headers: Record<string, string>) {
  return call<Body<Me>>(t.url, 'GET', '/api/v1/auth/me', { headers });
}

export async function countRows(t: TestServer, table: keyof DB): Promise<number> {
  const row = await t.ctx.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A local identity provider: its JWKS on 127.0.0.1 and a signer for its tokens (and a rogue key with the same kid). */
export interface TestIssuer {
  issuer: string;
  jwksUrl: string;
  /** Signs `claims` with the issuer's key; `exp`/`iat` default around `nowMs`. */
  sign(claims: JWTPayload, nowMs: number, opts?: { rogue?: boolean; ttlSeconds?: number; alg?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startIssuer(name: string): Promise<TestIssuer> {
  const real = await generateKeyPair('ES256');
  const rogue = await generateKeyPair('ES256');
  const kid = `${name}-k1`;
  const jwk = { ...(await exportJWK(real.publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = http.createServer((req, res) => {
    if (req.url === '/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `https://${name}.idp.test/pool`;
  return {
    issuer,
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    async sign(claims, nowMs, opts = {}) {
      const now = Math.floor(nowMs / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + (opts.ttlSeconds ?? 600), ...claims })
        .setProtectedHeader({ alg: opts.alg ?? 'ES256', kid })
        .sign(opts.rogue ? rogue.privateKey : real.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
