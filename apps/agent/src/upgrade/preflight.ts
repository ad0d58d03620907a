import {
  UpgradeOffer,
  artifactForArch,
  compareVersions,
  isTrustedArtifactUrl,
  isValidArtifactPrefix,
  releaseArtifacts,
  verifyReleaseSignature,
} from '@vend/protocol';
import type { BadVersion } from './journal.ts';

/**
 * Spec 2 §4.4 steps 1–7 as one pure decision: everything that can refuse an offer before a byte is
 * downloaded or anything on disk changes (Mender's lesson: every pre-flight check before any change).
 * Steps 8–11 (disk room, download and digest, extraction, swap, health) are I/O and live in the manager.
 */

/** What the daemon reports about how busy the cabinet is (spec 2 §4.4 step 7). */
export interface QuietState {
  /** No vend is holding the VMC lock. */
  vendLockFree: boolean;
  /** Remote dispense commands leased from the cloud and not yet reported. */
  leased: number;
  /** Reports waiting in the on-disk spool. */
  spoolDepth: number;
  /** Seconds since the last vend, lease or customer activity. */
  secondsSinceActivity: number;
}

/** Why an offer was refused; the step of spec 2 §4.4 it belongs to is in `REFUSAL_STEP`. */
export const REFUSAL_CODES = [
  'bad-offer',
  'untrusted-url',
  'no-signing-key',
  'bad-signature',
  'wrong-arch',
  'downgrade',
  'below-floor',
  'not-running-from-root',
  'no-disk-room',
  'download-failed',
  'size-mismatch',
  'digest-mismatch',
  'bad-archive',
  'bad-tree',
  'install-failed',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export const REFUSAL_STEP: Record<RefusalCode, number> = {
  'bad-offer': 1,
  'untrusted-url': 2,
  'no-signing-key': 3,
  'bad-signature': 4,
  'wrong-arch': 4,
  downgrade: 6,
  'below-floor': 6,
  'not-running-from-root': 8,
  'no-disk-room': 8,
  'download-failed': 9,
  'size-mismatch': 9,
  'digest-mismatch': 9,
  'bad-archive': 9,
  'bad-tree': 9,
  'install-failed': 10,
};

export interface PreflightContext {
  /** The version running now (dotted-numeric). */
  running: string;
  /** The architecture this agent runs on (`process.arch`): only the signed artifact for it is ever installed. */
  arch: string;
  /** The installed release-signing public key (32 bytes), or null: then nothing is ever installed. */
  publicKey: Uint8Array | null;
  /** The trusted artifact prefix (canonical https, ending in `/`), or null: then nothing is trusted. */
  artifactPrefix: string | null;
  /** The rollback floor kept on disk. */
  floor: string | null;
  /** Versions the boot guard reverted. */
  bad: readonly BadVersion[];
  quiet: QuietState;
  /** Seconds of inactivity that make the cabinet quiet (spec 2 §8: 180). */
  quietSeconds: number;
}

export type PreflightDecision =
  | { kind: 'proceed'; offer: UpgradeOffer }
  | { kind: 'current'; offer: UpgradeOffer }
  | { kind: 'refused'; step: number; code: RefusalCode; reason: string; version: string | null }
  | { kind: 'blocked'; version: string; minFrom: string; reason: string }
  | { kind: 'deferred'; version: string; reason: string };

function refused(code: RefusalCode, reason: string, version: string | null): PreflightDecision {
  return { kind: 'refused', step: REFUSAL_STEP[code], code, reason, version };
}

/** Why the cabinet is not quiet, or null when it is (every condition listed, for the deferral report). */
export function notQuietReason(quiet: QuietState, quietSeconds: number): string | null {
  const why: string[] = [];
  if (!quiet.vendLockFree) why.push('a vend holds the VMC lock');
  if (quiet.leased > 0) why.push(`${quiet.leased} remote dispense command${quiet.leased === 1 ? '' : 's'} leased`);
  if (quiet.spoolDepth > 0) why.push(`${quiet.spoolDepth} report${quiet.spoolDepth === 1 ? '' : 's'} waiting in the spool`);
  if (!(quiet.secondsSinceActivity >= quietSeconds))
    why.push(`last activity ${Math.max(0, Math.floor(quiet.secondsSinceActivity))} s ago (quiet after ${quietSeconds} s)`);
  return why.length ? why.join('; ') : null;
}

/** Steps 1–7 of spec 2 §4.4, in order; the first that fails decides. `input` is the offer as received. */
export function preflight(input: unknown, ctx: PreflightContext): PreflightDecision {
  // 1. the offer's shape (version, url, hex digest and the rest of the signed fields)
  const parsed = UpgradeOffer.safeParse(input);
  if (!parsed.success) {
    const version = (input as { version?: unknown } | null)?.version;
    return refused(
      'bad-offer',
      `malformed offer: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'offer'}: ${i.message}`).join('; ')}`,
      typeof version === 'string' ? version.slice(0, 64) : null,
    );
  }
  const offer = parsed.data;

  // 2. https and under the trusted prefix (a starts-with on a prefix ending in `/`)
  if (ctx.artifactPrefix === null || !isValidArtifactPrefix(ctx.artifactPrefix)) {
    return refused('untrusted-url', 'no valid trusted artifact prefix is configured: no URL is trusted', offer.version);
  }
  if (!isTrustedArtifactUrl(offer.url, ctx.artifactPrefix)) {
    return refused('untrusted-url', `${offer.url} is not an https URL under the trusted prefix ${ctx.artifactPrefix}`, offer.version);
  }

  // 3. a release-signing public key is installed; with none, nothing is ever installed
  if (ctx.publicKey === null) return refused('no-signing-key', 'no release-signing public key is installed: nothing is ever installed', offer.version);

  // 4. the signature verifies (nothing is downloaded before this)
  if (!verifyReleaseSignature(offer, ctx.publicKey))
    return refused('bad-signature', `the signature of ${offer.version} does not verify with the installed key`, offer.version);

  // 4b. the artifact offered is the signed one for this architecture (the cloud picks it; this agent
  // never trusts that it picked right: a binary for another architecture would fail only at the
  // self-test, after the download, or worse). A single-artifact release is an x64 tree.
  const mine = artifactForArch(offer, ctx.arch);
  if (mine === null) {
    const ships = releaseArtifacts(offer)
      .map((a) => a.arch)
      .join(', ');
    return refused('wrong-arch', `${offer.version} has no artifact for this cabinet's architecture ${ctx.arch} (it ships ${ships})`, offer.version);
  }
  if ((offer.arch !== undefined && offer.arch !== ctx.arch) || mine.url !== offer.url || mine.sha256 !== offer.sha256 || mine.size !== offer.size) {
    return refused(
      'wrong-arch',
      `the offered artifact of ${offer.version} (${offer.arch ?? 'no architecture named'}: ${offer.url}) is not its signed ${ctx.arch} artifact; refusing another architecture's binary`,
      offer.version,
    );
  }

  if (compareVersions(offer.version, ctx.running) === 0) return { kind: 'current', offer };

  // 5. the signed floor is at or below the running version (dotted-numeric compare)
  if (offer.minFrom != null && compareVersions(offer.minFrom, ctx.running) > 0) {
    return {
      kind: 'blocked',
      version: offer.version,
      minFrom: offer.minFrom,
      reason: `${offer.version} installs only over ${offer.minFrom} or later; running ${ctx.running}`,
    };
  }
  // a version the boot guard reverted here is never tried again (until a technician forgets it)
  const bad = ctx.bad.find((b) => compareVersions(b.version, offer.version) === 0);
  if (bad) {
    return { kind: 'blocked', version: offer.version, minFrom: offer.version, reason: `${offer.version} was reverted by the boot guard: ${bad.reason}` };
  }

  // 6. no downgrade without allowDowngrade; never below the rollback floor either
  if (!offer.allowDowngrade) {
    if (compareVersions(offer.version, ctx.running) < 0)
      return refused('downgrade', `${offer.version} is below the running ${ctx.running} and the offer does not allow a downgrade`, offer.version);
    if (ctx.floor !== null && compareVersions(offer.version, ctx.floor) < 0) {
      return refused('below-floor', `${offer.version} is below the rollback floor ${ctx.floor} and the offer does not allow a downgrade`, offer.version);
    }
  }

  // 7. the cabinet is quiet
  const busy = notQuietReason(ctx.quiet, ctx.quietSeconds);
  if (busy !== null) return { kind: 'deferred', version: offer.version, reason: busy };

  return { kind: 'proceed', offer };
}
