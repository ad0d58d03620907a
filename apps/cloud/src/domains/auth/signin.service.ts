import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../http/audit.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { Sealer } from '../../crypto/secrets.ts';
import { newId } from '../../crypto/ids.ts';
import { hashSecret, sha256Hex, verifyPassword, verifySecret } from '../../crypto/secrets.ts';
import type { OperatorRow } from '../../db/schema.ts';
import { AppError, ERROR_TABLE } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatScopes } from '../../http/scopes.ts';
import type { AuthRepo } from './auth.repo.ts';
import { operatorScopes } from './auth.service.ts';
import {
  ACCESS_TOKEN_PREFIX,
  RECOVERY_CODE_COUNT,
  TICKET_PREFIX,
  mintAccessToken,
  mintRecoveryCode,
  mintTicket,
  normalizeRecoveryCode,
} from './credentials.ts';
import { identityEmailOf, type IdentityTokenVerifier } from './id-token.ts';
import { TOTP_PARAMS, matchTotp, newTotpSecret, totpStep } from './totp.ts';
import type { ChallengeData, EnrolledData, EnrollStartData, RecoveredData, SessionData } from './auth.schemas.ts';

/** Sign-in limits. Counters are per hour (the rate limiter's window); see docs/decisions/auth.md. */
export const SIGNIN_LIMITS = {
  /** Password/social sign-in attempts from one address. */
  perIp: 100,
  /** Password attempts for one email from one address. */
  perEmailAndIp: 10,
  /** Calls to the MFA endpoints from one address. */
  mfaPerIp: 60,
  /** Code checks (TOTP or recovery) against one operator, whatever the address or ticket. */
  mfaCodesPerOperator: 30,
  /** Wrong codes that burn a ticket. */
  ticketAttempts: 5,
  /** Seconds a ticket lives. */
  ticketTtlSeconds: 300,
} as const;

const RATE_WINDOW_SECONDS = 3600;
const rateLimited = () => new AppError('rate_limited', undefined, { headers: { 'Retry-After': String(RATE_WINDOW_SECONDS) } });
/** A 401 with a detail: the catalogue text first (spec 1 §7), then what was wrong, as 400s render their details. */
const unauthorizedBecause = (detail: string) => new AppError('unauthorized', `${ERROR_TABLE.unauthorized.message}: ${detail}`);
const badTicket = () => unauthorizedBecause('invalid or expired sign-in ticket');
const badCode = () => unauthorizedBecause('invalid verification code');
type SignInVia = 'password' | 'social';
type Ticket = NonNullable<Awaited<ReturnType<AuthRepo['ticketByHash']>>>;

export interface SignInDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The sign-in budgets (per address, per email, per operator). */
  rateLimiter: Pick<RateLimiter, 'consume'>;
  /** Seals TOTP secrets at rest. */
  sealer: Sealer;
  config: Pick<Config, 'rateLimitPerHour' | 'sessionTtlSeconds'>;
  /** The social identity provider's token verifier; null when social sign-in is not configured. */
  social: IdentityTokenVerifier | null;
}

/**
 * Human sign-in: email + password or a social identity token, then a TOTP challenge (or its
 * enrolment), then an opaque session token. Tickets carry the sign-in from the first step to the
 * second: stored hashed, five minutes, single use, burned by five wrong codes.
 */
export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  private now(): number {
    return this.deps.clock.now();
  }

  private async spend(key: string, points: number): Promise<void> {
    if (!(await this.deps.rateLimiter.consume(key, points))) throw rateLimited();
  }

  /** Wrong password and unknown email are the same 401, after the same scrypt work (spec 1 §7). */
  async login(email: string, password: string, ip: string): Promise<ChallengeData> {
    const normalized = email.toLowerCase();
    await this.spend(`signin:ip:${ip}`, SIGNIN_LIMITS.perIp);
    await this.spend(`signin:email:${normalized}|${ip}`, SIGNIN_LIMITS.perEmailAndIp);
    const op = await this.deps.store.repos.auth.operatorByEmail(normalized);
    const ok = await verifyPassword(password, op?.password_hash ?? null);
    if (!op || !ok) throw new AppError('unauthorized');
    return this.challenge(op, 'password');
  }

  /** 503 unless a social issuer is configured: said before anything else about the request. */
  requireSocial(): IdentityTokenVerifier {
    if (!this.deps.social) throw new AppError('unavailable', 'Social sign-in not configured');
    return this.deps.social;
  }

  /** Existing operators only: an identity the service has no account for is refused, never created. */
  async socialLogin(idToken: string, ip: string): Promise<ChallengeData> {
    const social = this.requireSocial();
    await this.spend(`signin:ip:${ip}`, SIGNIN_LIMITS.perIp);
    const claims = await social.verify(idToken);
    const email = claims?.sub ? identityEmailOf(claims) : null;
    const op = email ? await this.deps.store.repos.auth.operatorByEmail(email) : undefined;
    if (!op) throw new AppError('unauthorized');
    return this.challenge(op, 'social');
  }

  private async challenge(op: OperatorRow, via: SignInVia): Promise<ChallengeData> {
    const now = this.now();
    const ticket = mintTicket();
    await this.deps.store.transaction(async (tx) => {
      const repo = tx.auth;
      await repo.deleteDeadTicketsOf(op.id, now, SIGNIN_LIMITS.ticketAttempts);
      await repo.insertTicket({
        ticket_hash: sha256Hex(ticket),
        operator_id: op.id,
        auth_method: via,
        pending_secret_enc: null,
        created_at: now,
        expires_at: now + SIGNIN_LIMITS.ticketTtlSeconds * 1000,
        used_at: null,
      });
      await this.deps.audit.record(tx, actor(op, `signin:${via}`, this.deps.config.rateLimitPerHour), 'auth.mfa.challenge', `operator:${op.id}`);
    });
    const enrolled = mfaEnrolled(op);
    return {
      mfaRequired: enrolled,
      mfaEnrollmentRequired: !enrolled,
      ticket,
      expiresIn: SIGNIN_LIMITS.ticketTtlSeconds,
      methods: enrolled ? ['totp', 'recovery_code'] : ['totp'],
      operator: summary(op),
    };
  }

  /** The live ticket and its operator, after the per-address budget; 401 for anything else. */
  private async openTicket(raw: string, ip: string): Promise<{ ticket: Ticket; hash: string; op: OperatorRow }> {
    await this.spend(`mfa:ip:${ip}`, SIGNIN_LIMITS.mfaPerIp);
    if (!raw.startsWith(TICKET_PREFIX)) throw badTicket();
    const hash = sha256Hex(raw);
    const repo = this.deps.store.repos.auth;
    const ticket = await repo.ticketByHash(hash);
    if (!ticket || ticket.used_at !== null || ticket.expires_at <= this.now() || ticket.attempts >= SIGNIN_LIMITS.ticketAttempts) throw badTicket();
    const op = await repo.operatorById(ticket.operator_id);
    if (!op) throw badTicket();
    return { ticket, hash, op };
  }

  async enrollStart(rawTicket: string, ip: string): Promise<EnrollStartData> {
    const { hash, op } = await this.openTicket(rawTicket, ip);
    if (mfaEnrolled(op)) throw new AppError('conflict', 'MFA is already enrolled; sign in with /api/v1/auth/mfa/verify');
    const { secret, otpauthUrl } = newTotpSecret(op.email);
    const now = this.now();
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.auth.setPendingSecret(hash, this.deps.sealer.seal(secret), now, SIGNIN_LIMITS.ticketAttempts))) throw badTicket();
      await this.deps.audit.record(tx, actor(op, 'signin:mfa', this.deps.config.rateLimitPerHour), 'auth.mfa.enroll.start', `operator:${op.id}`);
    });
    return { secret, otpauthUrl, ...TOTP_PARAMS };
  }

  /** The first code from the new authenticator proves it holds the secret: MFA is on, recovery codes are shown once, and a session starts. */
  async enrollConfirm(rawTicket: string, code: string, ip: string): Promise<EnrolledData> {
    const { ticket, hash, op } = await this.openTicket(rawTicket, ip);
    if (mfaEnrolled(op)) throw new AppError('conflict', 'MFA is already enrolled; sign in with /api/v1/auth/mfa/verify');
    const sealed = ticket.pending_secret_enc;
    if (!sealed) throw new AppError('conflict', 'Enrolment not started; call /api/v1/auth/mfa/enroll/start first');
    await this.spend(`mfa:op:${op.id}`, SIGNIN_LIMITS.mfaCodesPerOperator);
    const now = this.now();
    const step = matchTotp(this.deps.sealer.open(sealed), code, now);
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, mintRecoveryCode);
    const session = await this.deps.store.transaction(async (tx) => {
      const repo = tx.auth;
      if (step === null || !(await repo.recordTotpUse(op.id, step))) return this.countFailure(tx, hash, op, now);
      if (!(await repo.consumeTicket(hash, now, SIGNIN_LIMITS.ticketAttempts))) throw badTicket();
      if (!(await tx.accounts.enableMfa(op.id, sealed))) throw new AppError('conflict', 'MFA is already enrolled');
      await repo.replaceRecoveryCodes(
        op.id,
        recoveryCodes.map((c) => hashSecret(normalizeRecoveryCode(c)!)),
        now,
      );
      await this.deps.audit.record(tx, actor(op, 'signin:mfa', this.deps.config.rateLimitPerHour), 'auth.mfa.enroll', `operator:${op.id}`);
      return this.issueSession(tx, op, now, step);
    });
    if (!session) throw badCode();
    return { ...session, recoveryCodes };
  }

  /** A TOTP code of the current step ±1, each step accepted once per operator. */
  async verify(rawTicket: string, code: string, ip: string): Promise<SessionData> {
    const { hash, op } = await this.openTicket(rawTicket, ip);
    const sealed = enrolledSecret(op);
    await this.spend(`mfa:op:${op.id}`, SIGNIN_LIMITS.mfaCodesPerOperator);
    const now = this.now();
    const step = matchTotp(this.deps.sealer.open(sealed), code, now);
    const session = await this.deps.store.transaction(async (tx) => {
      const repo = tx.auth;
      if (step === null || !(await repo.recordTotpUse(op.id, step))) return this.countFailure(tx, hash, op, now);
      if (!(await repo.consumeTicket(hash, now, SIGNIN_LIMITS.ticketAttempts))) throw badTicket();
      return this.issueSession(tx, op, now, step);
    });
    if (!session) throw badCode();
    return session;
  }

  /** One of the enrolment's recovery codes instead of a TOTP code; the code is spent. */
  async recover(rawTicket: string, recoveryCode: string, ip: string): Promise<RecoveredData> {
    const { hash, op } = await this.openTicket(rawTicket, ip);
    enrolledSecret(op);
    await this.spend(`mfa:op:${op.id}`, SIGNIN_LIMITS.mfaCodesPerOperator);
    const now = this.now();
    const normalized = normalizeRecoveryCode(recoveryCode);
    const unused = await this.deps.store.repos.auth.unusedRecoveryCodes(op.id);
    // Every stored code is compared (constant time each) whichever matches, so timing tells nothing.
    let match: string | null = null;
    for (const c of unused) if (verifySecret(normalized ?? '', c.code_hash)) match = c.id;
    if (normalized === null) match = null;
    const result = await this.deps.store.transaction(async (tx) => {
      const repo = tx.auth;
      if (match === null || !(await repo.useRecoveryCode(match, now))) return this.countFailure(tx, hash, op, now);
      if (!(await repo.consumeTicket(hash, now, SIGNIN_LIMITS.ticketAttempts))) throw badTicket();
      await this.deps.audit.record(tx, actor(op, 'signin:mfa', this.deps.config.rateLimitPerHour), 'auth.mfa.recovery', `operator:${op.id}`);
      const session = await this.issueSession(tx, op, now, null);
      return { ...session, recoveryCodesRemaining: unused.length - 1 };
    });
    if (!result) throw badCode();
    return result;
  }

  /** Sign-out: the session token is deleted (whatever it was, nothing is said); audited when it was one. */
  async signOut(token: string): Promise<void> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 512) return;
    await this.deps.store.transaction(async (tx) => {
      const hash = sha256Hex(token);
      const operatorId = await tx.auth.deleteSessionToken(hash);
      // not a sign-in session: an access-group session the console put in the cookie ends the same way
      if (!operatorId) {
        await tx.auth.deleteAccessSessionToken(hash);
        return;
      }
      const op = await tx.auth.operatorById(operatorId);
      if (op) await this.deps.audit.record(tx, actor(op, 'signin:signout', this.deps.config.rateLimitPerHour), 'auth.logout', `operator:${op.id}`);
    });
  }

  /** A wrong code: counted on the ticket (the fifth burns it) and audited; the caller answers 401. */
  private async countFailure(tx: Repos, hash: string, op: OperatorRow, now: number): Promise<null> {
    await tx.auth.failTicketAttempt(hash, now, SIGNIN_LIMITS.ticketAttempts);
    await this.deps.audit.record(tx, actor(op, 'signin:mfa', this.deps.config.rateLimitPerHour), 'auth.mfa.failure', `operator:${op.id}`);
    return null;
  }

  private async issueSession(tx: Repos, op: OperatorRow, now: number, totpStepUsed: number | null): Promise<SessionData> {
    const repo = tx.auth;
    const ttl = this.deps.config.sessionTtlSeconds;
    const scopes = operatorScopes(op.admin === 1);
    const token = mintAccessToken();
    const sessionId = newId('ses', now);
    await repo.deleteExpiredTokensOf(op.id, now);
    await repo.deleteDeadTicketsOf(op.id, now, SIGNIN_LIMITS.ticketAttempts);
    if (totpStepUsed !== null) await repo.pruneTotpUses(op.id, totpStep(now) - 2);
    await repo.insertAccessToken({
      token_hash: sha256Hex(token),
      operator_id: op.id,
      kind: 'session',
      credential_id: sessionId,
      scopes: formatScopes(scopes),
      created_at: now,
      expires_at: now + ttl * 1000,
    });
    await this.deps.audit.record(tx, actor(op, sessionId, this.deps.config.rateLimitPerHour), 'auth.login', `operator:${op.id}`);
    return { token, tokenType: 'Bearer', expiresIn: ttl, scope: formatScopes(scopes), operator: summary(op) };
  }
}

function mfaEnrolled(op: OperatorRow): boolean {
  return op.mfa_enabled === 1 && op.mfa_secret_enc !== null;
}

function enrolledSecret(op: OperatorRow): string {
  if (op.mfa_enabled !== 1 || op.mfa_secret_enc === null) {
    throw new AppError('conflict', 'MFA is not enrolled; enrol with /api/v1/auth/mfa/enroll/start');
  }
  return op.mfa_secret_enc;
}

function summary(op: OperatorRow): { email: string; name: string; admin: boolean } {
  return { email: op.email, name: op.name, admin: op.admin === 1 };
}

/** Who a sign-in write is recorded against: the operator, with the step's credential as the key id. */
function actor(op: OperatorRow, credentialId: string, rateLimit: number): Principal {
  const admin = op.admin === 1;
  return {
    operatorId: op.id,
    operatorEmail: op.email,
    admin,
    scopes: new Set(operatorScopes(admin)),
    authMethod: 'session',
    credentialId,
    rateLimit,
    plant: null,
    fence: null,
  };
}
