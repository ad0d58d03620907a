/**
 * The enrolment rules of spec 2 §3 and §5, as a pure decision over the facts the store holds.
 * The service gathers the facts inside the enrolment transaction and acts on the verdict.
 */

export const ENROLMENT_MODES = ['open', 'armed', 'closed'] as const;
export type EnrolmentMode = (typeof ENROLMENT_MODES)[number];

export const BINDINGS = ['device-id', 'self-asserted', 'unbound'] as const;
export type Binding = (typeof BINDINGS)[number];

export type CredentialState = 'fleet-secret' | 'enrolled' | 'revoked';

/** A stored mode value; anything unrecognised (or nothing) reads as `open` (spec 2 §5 rule 4). */
export function readMode(value: string | null | undefined): EnrolmentMode {
  return (ENROLMENT_MODES as readonly string[]).includes(value ?? '') ? (value as EnrolmentMode) : 'open';
}

const STRICTNESS: Record<EnrolmentMode, number> = { open: 0, armed: 1, closed: 2 };

/** The fleet-wide mode and a machine's own setting combine to the stricter: an operator can tighten, never loosen. */
export function effectiveMode(fleet: string | null | undefined, machine: string | null | undefined): EnrolmentMode {
  const a = readMode(fleet);
  const b = machine === null || machine === undefined ? a : readMode(machine);
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

export function readBinding(value: string | null | undefined): Binding {
  return (BINDINGS as readonly string[]).includes(value ?? '') ? (value as Binding) : 'unbound';
}

export interface EnrolmentFacts {
  mode: EnrolmentMode;
  credState: CredentialState;
  binding: Binding;
  boundDeviceId: string | null;
  /** The open arm, if any (`deviceId` null when it is not pinned to a box). */
  arm: { deviceId: string | null } | null;
  presentedDeviceId: string | null;
}

export type EnrolmentVerdict =
  | { ok: true; via: 'arm' | 'binding' }
  | {
      ok: false;
      status: 403 | 409 | 428;
      reason: 'revoked' | 'already-enrolled' | 'closed' | 'identity-conflict' | 'arm-pinned' | 'arm-required' | 'no-proof';
    };

export const VERDICT_MESSAGES: Record<Exclude<EnrolmentVerdict, { ok: true }>['reason'], string> = {
  revoked: 'Credential revoked',
  'already-enrolled': 'Cabinet is already enrolled: a second enrolment for one identity needs an identity reset',
  closed: 'Enrolment is closed for this cabinet',
  'identity-conflict': 'Serial is bound to a different device',
  'arm-pinned': 'The open enrolment arm is pinned to a different device',
  'arm-required': 'Enrolment mode is armed: this cabinet needs an open enrolment arm',
  'no-proof': 'Nothing proves this claimant: arm the cabinet or enrol from its bound device',
};

/**
 * Decides a fleet-secret enrolment. In order: a revoked identity stays revoked (403); one identity
 * enrols once (409, which includes an agent that lost its state); `closed` refuses everyone (428, so
 * the agent keeps retrying and a later change of mode lets it through); a serial bound to another
 * box is a conflict (409) unless an arm overrides a merely self-asserted binding; an open arm
 * vouches (unless pinned to another box); in `open` mode a trusted binding to the presented box
 * vouches; nothing else does (428).
 */
export function decideEnrolment(f: EnrolmentFacts): EnrolmentVerdict {
  if (f.credState === 'revoked') return { ok: false, status: 403, reason: 'revoked' };
  if (f.credState === 'enrolled') return { ok: false, status: 409, reason: 'already-enrolled' };
  if (f.mode === 'closed') return { ok: false, status: 428, reason: 'closed' };
  const armUsable = f.arm !== null && (f.arm.deviceId === null || f.arm.deviceId === f.presentedDeviceId);
  const otherBox = f.presentedDeviceId !== null && f.boundDeviceId !== null && f.binding !== 'unbound' && f.presentedDeviceId !== f.boundDeviceId;
  if (otherBox && (f.binding === 'device-id' || !armUsable)) return { ok: false, status: 409, reason: 'identity-conflict' };
  if (f.arm !== null) return armUsable ? { ok: true, via: 'arm' } : { ok: false, status: 428, reason: 'arm-pinned' };
  if (f.mode === 'armed') return { ok: false, status: 428, reason: 'arm-required' };
  if (f.binding === 'device-id' && f.presentedDeviceId !== null && f.presentedDeviceId === f.boundDeviceId) return { ok: true, via: 'binding' };
  return { ok: false, status: 428, reason: 'no-proof' };
}

/**
 * What a fleet-secret `register` does with a presented deviceId: bind an unbound serial
 * (self-asserted), accept the bound box, refuse another box (409, conflict recorded).
 */
export function decideRegisterBinding(binding: Binding, boundDeviceId: string | null, presented: string | null): 'keep' | 'bind' | 'conflict' {
  if (presented === null) return 'keep';
  if (binding === 'unbound' || boundDeviceId === null) return 'bind';
  return presented === boundDeviceId ? 'keep' : 'conflict';
}
