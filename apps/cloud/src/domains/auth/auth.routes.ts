import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { AuthService } from './auth.service.ts';
import { OAuthError, readTokenRequest, type TokenRequest } from './oauth.ts';
import type { OAuthService } from './oauth.service.ts';
import type { SignInService } from './signin.service.ts';
import {
  ChallengeData,
  CodeBody,
  CredentialsData,
  EnrolledData,
  EnrollStartData,
  LoginBody,
  MeData,
  RecoveredData,
  RecoveryBody,
  SessionData,
  SocialLoginBody,
  TicketBody,
  TokenForm,
  TokenResponse,
} from './auth.schemas.ts';

const TOKEN_PATH = '/oauth/token';

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Responses that carry a token or a ticket are never cached (RFC 6749 §5.1). */
function noStore(res: Response): Response {
  return res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
}

function sendOAuthError(res: Response, e: OAuthError): void {
  noStore(res)
    .set(e.headers)
    .status(e.status)
    .type('application/json')
    .send(JSON.stringify({ error: e.error, error_description: e.description }));
}

/**
 * The token endpoint answers errors in RFC 6749 §5.2 form, never in the envelope — including the
 * body parser's (malformed, too large, bad charset), which fail before any router runs; hence an
 * app-level error handler that only speaks for this one path.
 */
export const oauthErrorHandler: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (req.path !== TOKEN_PATH || res.headersSent) return next(err);
  if (err instanceof OAuthError) return sendOAuthError(res, err);
  // body-parser's errors: http-errors with a 4xx status (a `type`, or `expose` for wrapped stream errors such as bad gzip)
  const e = err as { type?: unknown; status?: unknown; expose?: unknown };
  if (e && typeof e === 'object' && (typeof e.type === 'string' || e.expose === true) && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    const status = e.status === 413 || e.status === 415 ? e.status : 400;
    return sendOAuthError(res, new OAuthError(status, 'invalid_request', status === 413 ? 'Request body too large' : 'Malformed request body'));
  }
  return next(err);
};

/**
 * Authentication and identity (spec 1 §4.2, §5): the OAuth token endpoint, sign-in with MFA,
 * and who-am-I. Mount the returned pair with one `app.use(...)`: the router, then the token
 * endpoint's error handler.
 */
export function authRoutes(kit: RouteKit, auth: AuthService, oauth: OAuthService, signIn: SignInService): [Router, ErrorRequestHandler] {
  const r = Router();

  // The token request is read by OAuth's own rules (RFC 6749 §5.2 errors, never the envelope) before
  // the route's form schema sees it; that schema then documents the form and cannot fail.
  const tokenRequest: RequestHandler = (req, res, next) => {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new OAuthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    }
    res.locals['tokenRequest'] = readTokenRequest(req.body, req.headers.authorization);
    next();
  };
  // Social sign-in says it is not configured (503) before anything else about the request.
  const socialConfigured: RequestHandler = (_req, _res, next) => {
    signIn.requireSocial();
    next();
  };

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: TOKEN_PATH,
      tag: 'auth',
      summary: 'OAuth 2.0 client-credentials token (form-encoded; client secret in the body or HTTP Basic)',
      auth: 'oauth-client',
      body: TokenForm,
      response: TokenResponse,
      envelope: false,
      errors: [],
    },
    [tokenRequest],
    async (_input, _req, res) => {
      const token = await oauth.issueToken(res.locals['tokenRequest'] as TokenRequest);
      noStore(res).status(200).type('application/json').send(JSON.stringify(token));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/login',
      tag: 'auth',
      summary: 'Sign in with email and password; answers an MFA challenge (or enrolment) ticket',
      auth: 'none',
      body: LoginBody,
      response: ChallengeData,
      errors: [400, 401, 422, 429],
    },
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.login(body.email, body.password, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/login/social',
      tag: 'auth',
      summary: "Sign in with a social identity provider's ID token (existing operators only); answers the same MFA challenge",
      auth: 'none',
      body: SocialLoginBody,
      response: ChallengeData,
      errors: [400, 401, 422, 429, 503],
    },
    [socialConfigured],
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.socialLogin(body.idToken, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/mfa/enroll/start',
      tag: 'auth',
      summary: 'Start TOTP enrolment: a new secret and its otpauth:// URL',
      auth: 'none',
      body: TicketBody,
      response: EnrollStartData,
      errors: [400, 401, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.enrollStart(body.ticket, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/mfa/enroll/confirm',
      tag: 'auth',
      summary: 'Confirm TOTP enrolment with a first code; answers the session token and one-time recovery codes',
      auth: 'none',
      body: CodeBody,
      response: EnrolledData,
      errors: [400, 401, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.enrollConfirm(body.ticket, body.code, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/mfa/verify',
      tag: 'auth',
      summary: 'Answer the MFA challenge with a TOTP code; answers the session token',
      auth: 'none',
      body: CodeBody,
      response: SessionData,
      errors: [400, 401, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.verify(body.ticket, body.code, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/auth/mfa/recovery',
      tag: 'auth',
      summary: 'Answer the MFA challenge with a one-time recovery code (spent on use)',
      auth: 'none',
      body: RecoveryBody,
      response: RecoveredData,
      errors: [400, 401, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(noStore(res), await signIn.recover(body.ticket, body.recoveryCode, clientIp(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/auth/me',
      tag: 'auth',
      summary: 'Who the credential belongs to, its scopes and how it signed in',
      auth: 'operator',
      groupSessions: true,
      response: MeData,
    },
    async (_input, req, res) => sendOk(res, await auth.me(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/auth/credentials',
      tag: 'auth',
      summary: "The operator's API keys and OAuth clients, masked, with scopes and rate limits",
      auth: 'operator',
      response: CredentialsData,
    },
    async (_input, req, res) => sendOk(res, await auth.credentials(principalOf(req))),
  );

  return [r, oauthErrorHandler];
}
