import { parseDeviceKey } from '@vend/protocol';
import type { StateDir } from '../state/state-dir.ts';

/** What the cloud client needs to know about the cabinet's credential. */
export interface CredentialStore {
  /** `keyId:secret` to present, or null (not enrolled, or revoked: a revoked key is never presented). */
  current(): string | null;
  /** A rotated credential from `x-device-credential`: stored durably first, presented from then on. */
  replace(next: string): void;
  /** A fresh enrolment. */
  enrolled(credential: string, machineCode: string): void;
  /** The cloud answered 403 to the key: stop presenting it, for good. */
  markRevoked(message: string): void;
  isRevoked(): boolean;
  /** What the cloud said when it revoked, if known. */
  revokedReason(): string | null;
}

export interface CredentialEvents {
  rotated?(keyId: string, previousKeyId: string | null): void;
  revoked?(message: string): void;
}

/** The credential kept in the state directory (file `credential`, mode 0600; `enrolment.json` beside it). */
export class StateCredentialStore implements CredentialStore {
  private value: string | null;
  private revoked: boolean;

  constructor(
    private readonly state: StateDir,
    private readonly now: () => number,
    private readonly events: CredentialEvents = {},
  ) {
    this.value = state.readCredential();
    this.revoked = state.readEnrolment()?.state === 'revoked';
    if (this.value) state.tighten('credential');
  }

  current(): string | null {
    return this.revoked ? null : this.value;
  }

  /** The key id in use (not secret), for status and logs. */
  keyId(): string | null {
    return this.value ? (parseDeviceKey(this.value)?.keyId ?? null) : null;
  }

  replace(next: string): void {
    const parsed = parseDeviceKey(next);
    if (!parsed || next === this.value || this.revoked) return;
    const previous = this.keyId();
    // Durable before it is ever presented: a crash after this line presents N+1 on the next start.
    this.state.writeCredential(next);
    const enrolment = this.state.readEnrolment();
    this.state.writeEnrolment({
      state: 'enrolled',
      keyId: parsed.keyId,
      machineCode: enrolment?.machineCode ?? null,
      message: null,
      at: this.now(),
    });
    this.value = next;
    this.events.rotated?.(parsed.keyId, previous);
  }

  enrolled(credential: string, machineCode: string): void {
    const parsed = parseDeviceKey(credential);
    if (!parsed) throw new Error('the cloud answered a credential that is not keyId:secret');
    this.state.writeCredential(credential);
    this.state.writeEnrolment({ state: 'enrolled', keyId: parsed.keyId, machineCode, message: null, at: this.now() });
    this.value = credential;
    this.revoked = false;
  }

  markRevoked(message: string): void {
    if (this.revoked) return;
    this.revoked = true;
    this.state.writeEnrolment({ state: 'revoked', keyId: this.keyId(), machineCode: this.state.readEnrolment()?.machineCode ?? null, message, at: this.now() });
    this.events.revoked?.(message);
  }

  isRevoked(): boolean {
    return this.revoked;
  }

  revokedReason(): string | null {
    return this.revoked ? (this.state.readEnrolment()?.message ?? null) : null;
  }
}

/** An in-memory store (unit tests). */
export class MemoryCredentialStore implements CredentialStore {
  /** Every value ever stored, in order (tests assert what was persisted before use). */
  readonly history: string[] = [];
  revokedMessage: string | null = null;
  constructor(private value: string | null = null) {
    if (value) this.history.push(value);
  }
  current(): string | null {
    return this.revokedMessage === null ? this.value : null;
  }
  replace(next: string): void {
    if (!parseDeviceKey(next) || next === this.value || this.revokedMessage !== null) return;
    this.history.push(next);
    this.value = next;
  }
  enrolled(credential: string): void {
    this.history.push(credential);
    this.value = credential;
  }
  markRevoked(message: string): void {
    this.revokedMessage ??= message;
  }
  isRevoked(): boolean {
    return this.revokedMessage !== null;
  }
  revokedReason(): string | null {
    return this.revokedMessage;
  }
}
