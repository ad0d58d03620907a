import {
  compareVersions,
  isTrustedArtifactUrl,
  releaseArtifacts,
  sameSignedBytes,
  verifyReleaseSignature,
  type ReleaseArtifact,
  type ReleaseManifest,
} from '@vend/protocol';
import { AppError, badRequest, conflict } from '../../http/errors.ts';

/**
 * The publishing rules of spec 2 §4.5, as one pure function over the manifest, the registry and the
 * trust settings. The service runs it inside the publishing transaction; every refusal is an
 * AppError (400 or 409) and nothing is written.
 */

/** The sortable, normalised form of a dotted-numeric version: four components zero-padded to nine digits. */
export function versionKey(version: string): string {
  const parts = version.split('.').map(Number);
  if (parts.length > 4 || parts.some((n) => !Number.isSafeInteger(n) || n < 0 || n > 999_999_999))
    throw new RangeError(`not a dotted-numeric version: ${version}`);
  while (parts.length < 4) parts.push(0);
  return parts.map((n) => String(n).padStart(9, '0')).join('.');
}

/** A published release as the rules compare it: its signed fields, every artifact in canonical order. */
export interface PublishedRelease {
  version: string;
  migration: boolean;
  minFrom: string | null;
  artifacts: readonly ReleaseArtifact[];
}

export interface Trust {
  /** The fleet publishing public key (32 bytes). */
  publicKey: Uint8Array;
  /** The trusted artifact prefix (https, ends with `/`). */
  artifactUrlPrefix: string;
}

export type PublishVerdict<R extends PublishedRelease> = { kind: 'existing'; release: R } | { kind: 'new' };

/**
 * Judges a publication. In order: the signature must verify against the fleet key (400); every
 * artifact's url must be https and under the trusted prefix (400); an existing version with the same signed bytes
 * is accepted as that record, with different bytes refused (409: versions are immutable); `minFrom`
 * must be below the version (400); and a floor with no published release between it and the version,
 * while some published release lies below it, is refused (400: publish the rung first).
 */
export function judgePublication<R extends PublishedRelease>(manifest: ReleaseManifest, published: readonly R[], trust: Trust): PublishVerdict<R> {
  if (!verifyReleaseSignature(manifest, trust.publicKey)) {
    throw badRequest('signature does not verify against the fleet publishing key');
  }
  for (const { arch, url } of releaseArtifacts(manifest)) {
    const which = 'artifacts' in manifest ? `the ${arch} artifact's url` : 'url';
    if (!url.startsWith('https://')) throw badRequest(`${which} must be https`);
    if (!isTrustedArtifactUrl(url, trust.artifactUrlPrefix)) {
      throw badRequest(`${which} is outside the trusted artifact prefix ${trust.artifactUrlPrefix}`);
    }
  }

  const existing = published.find((r) => compareVersions(r.version, manifest.version) === 0);
  if (existing) {
    if (sameSignedBytes(existing, manifest)) return { kind: 'existing', release: existing };
    throw conflict(`version ${existing.version} is already published with different bytes; versions are immutable`);
  }

  const floor = manifest.minFrom ?? null;
  if (floor !== null) {
    if (compareVersions(floor, manifest.version) >= 0) throw badRequest(`minFrom ${floor} must be below the release's own version ${manifest.version}`);
    const underFloor = published.filter((r) => compareVersions(r.version, floor) < 0);
    const rung = published.some((r) => compareVersions(r.version, floor) >= 0 && compareVersions(r.version, manifest.version) < 0);
    if (underFloor.length > 0 && !rung) {
      const highest = underFloor.reduce((a, b) => (compareVersions(a.version, b.version) >= 0 ? a : b));
      throw new AppError(
        'bad_request',
        `publish the rung first: no published release between minFrom ${floor} and ${manifest.version}, while ${highest.version} is published below the floor (cabinets there could never reach ${manifest.version})`,
      );
    }
  }
  return { kind: 'new' };
}
