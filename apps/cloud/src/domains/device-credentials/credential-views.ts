import { formatTimestamp } from '../../http/time-format.ts';
import type { ArmView, BuildView } from './device-credentials.schemas.ts';
import type { CredentialState } from './enrolment.rules.ts';

/** The machine's credential state as stored; a machine without an identity row is on the fleet secret. */
export function credentialState(v: string | null | undefined): CredentialState {
  return v === 'enrolled' || v === 'revoked' ? v : 'fleet-secret';
}

export function armView(a: {
  reason: string;
  device_id: string | null;
  created_at: number;
  expires_at: number;
  armed_by_kind: string;
  armed_by_key: string | null;
  armed_by_operator: string | null;
}): ArmView {
  const kind = a.armed_by_kind === 'owner' || a.armed_by_kind === 'factory' ? a.armed_by_kind : 'admin';
  return {
    reason: a.reason,
    deviceId: a.device_id,
    armedAt: formatTimestamp(a.created_at)!,
    expiresAt: formatTimestamp(a.expires_at)!,
    armedBy: { kind, keyId: a.armed_by_key, operatorEmail: a.armed_by_operator },
  };
}

export function buildView(b: { machine_no: string; plant: string; built_at: number; qa_passed_at: number | null; shipped_at: number | null }): BuildView {
  return {
    machineNo: b.machine_no,
    plant: b.plant,
    builtAt: formatTimestamp(b.built_at)!,
    qaPassedAt: formatTimestamp(b.qa_passed_at),
    shippedAt: formatTimestamp(b.shipped_at),
  };
}
