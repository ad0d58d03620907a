import type { Clock } from '@vend/protocol';
import { formatDeviceKey } from '@vend/protocol';
import { backoffDelay } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import { CloudError } from './client.ts';
import type { CloudClient, CloudLogger } from './client.ts';
import type { CredentialStore } from './credentials.ts';

/** Where enrolment stands, as `vend-agent status` shows it. */
export type EnrolmentStatus =
  | { state: 'enrolled'; keyId: string | null; machineCode: string | null }
  | { state: 'not-enrolled'; message: string }
  /** 428: nothing proves this claimant yet (no arm, no trusted binding); retried. */
  | { state: 'waiting-for-arm'; message: string; attempts: number; since: number }
  /** 409: the cloud holds an enrolment (or a binding to another box) this agent cannot use. */
  | { state: 'conflict'; message: string }
  /** 403: revoked; never presented again, never re-enrolled. */
  | { state: 'revoked'; message: string }
  /** 401 (wrong fleet secret), 400/404 (serial), 429 (budget), 503 (gateway disabled), or no answer; retried. */
  | { state: 'failing'; message: string; status: number | null; attempts: number };

/** A technician's explanation of a 409 (spec 2 §7: includes an agent that lost its state). */
export const CONFLICT_HELP =
  'the cloud already holds an enrolment for this cabinet (or its serial is bound to another box) that this agent does not have — ' +
  'typically the agent state was lost or the control board was replaced. An admin must reset the cabinet identity ' +
  '(POST /api/v1/machines/{machineNo}/identity/reset) and arm it; then run `vend-agent enrol`.';

export interface EnrollerOptions {
  client: CloudClient;
  credentials: CredentialStore;
  deviceId: string;
  clock: Clock;
  random: RandomSource;
  log: CloudLogger;
  /** Persists a 409 so `status` shows it with the daemon stopped. */
  recordConflict(message: string): void;
  /** Retry pacing: 428 from waitMs doubling to capMs; 409 every conflictRetryMs. */
  waitMs?: number;
  capMs?: number;
  conflictRetryMs?: number;
}

/**
 * Enrolment with the fleet secret and the box's deviceId (spec 2 §3): stores `keyId:deviceKey` as
 * one string. 428 (no arm yet) is retried; 403 is revocation — the agent stops and never enrols
 * again; 409 is reported for a technician and retried slowly (an identity reset clears it).
 */
export class Enroller {
  private state: EnrolmentStatus;
  private wake: (() => void) | null = null;

  constructor(private readonly opts: EnrollerOptions) {
    this.state = opts.credentials.isRevoked()
      ? { state: 'revoked', message: 'credential revoked' }
      : opts.credentials.current() !== null
        ? { state: 'enrolled', keyId: null, machineCode: null }
        : { state: 'not-enrolled', message: 'not enrolled yet' };
  }

  status(): EnrolmentStatus {
    const credentials = this.opts.credentials;
    if (credentials.isRevoked() && this.state.state !== 'revoked')
      this.state = { state: 'revoked', message: credentials.revokedReason() ?? 'credential revoked' };
    else if (this.state.state !== 'enrolled' && credentials.current() !== null) this.state = { state: 'enrolled', keyId: null, machineCode: null };
    return this.state;
  }

  /** One enrolment call. */
  async attempt(signal?: AbortSignal): Promise<EnrolmentStatus> {
    const credentials = this.opts.credentials;
    if (credentials.isRevoked()) return (this.state = { state: 'revoked', message: 'credential revoked: this cabinet does not enrol again' });
    if (credentials.current() !== null) return (this.state = { state: 'enrolled', keyId: null, machineCode: null });
    const attempts = 'attempts' in this.state ? this.state.attempts + 1 : 1;
    try {
      const data = await this.opts.client.enrol(this.opts.deviceId, signal ? { signal } : {});
      credentials.enrolled(formatDeviceKey({ keyId: data.keyId, secret: data.deviceKey }), data.machineCode);
      this.opts.log.info({ keyId: data.keyId, machineCode: data.machineCode }, 'enrolled: the device key is stored');
      return (this.state = { state: 'enrolled', keyId: data.keyId, machineCode: data.machineCode });
    } catch (e) {
      if (!(e instanceof CloudError)) throw e;
      if (e.kind === 'aborted') throw e;
      if (e.kind === 'revoked' || (e.kind === 'http' && e.status === 403)) {
        credentials.markRevoked(e.message);
        this.opts.log.error({ message: e.message }, 'enrolment refused: this cabinet is revoked; it will not try again');
        return (this.state = { state: 'revoked', message: e.message });
      }
      if (e.kind === 'http' && e.status === 428) {
        const since = this.state.state === 'waiting-for-arm' ? this.state.since : this.opts.clock.now();
        if (this.state.state !== 'waiting-for-arm')
          this.opts.log.warn({ message: e.message }, 'enrolment is waiting: the cloud needs an enrolment arm for this cabinet (428); retrying');
        return (this.state = { state: 'waiting-for-arm', message: e.message, attempts, since });
      }
      if (e.kind === 'http' && e.status === 409) {
        const message = `${e.message} — ${CONFLICT_HELP}`;
        this.opts.recordConflict(message);
        this.opts.log.error({ status: 409, message: e.message }, `enrolment conflict: ${CONFLICT_HELP}`);
        return (this.state = { state: 'conflict', message });
      }
      this.opts.log.warn({ status: e.status, message: e.message }, 'enrolment failed; retrying');
      return (this.state = { state: 'failing', message: e.message, status: e.status, attempts });
    }
  }

  /** Enrols, retrying, until enrolled (true) or revoked or stopped (false). */
  async run(signal: AbortSignal): Promise<boolean> {
    let failures = 0;
    let last: EnrolmentStatus['state'] | null = null;
    while (!signal.aborted) {
      let status: EnrolmentStatus;
      try {
        status = await this.attempt(signal);
      } catch (e) {
        if (e instanceof CloudError && e.kind === 'aborted') return false;
        throw e;
      }
      if (status.state === 'enrolled') return true;
      if (status.state === 'revoked') return false;
      if (status.state !== last) failures = 0;
      last = status.state;
      const base = this.opts.waitMs ?? 5_000;
      const cap = this.opts.capMs ?? 300_000;
      const wait =
        status.state === 'conflict'
          ? (this.opts.conflictRetryMs ?? 600_000)
          : backoffDelay(failures++, { baseMs: base, capMs: status.state === 'waiting-for-arm' ? Math.min(cap, 60_000) : cap, random: this.opts.random });
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.opts.clock.clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.wake = null;
          resolve();
        };
        const timer = this.opts.clock.setTimeout(done, wait);
        signal.addEventListener('abort', done, { once: true });
        this.wake = done;
      });
    }
    return false;
  }

  /** Ends the current wait: the next attempt runs now (`vend-agent enrol` while the daemon runs). */
  kick(): void {
    this.wake?.();
  }
}
