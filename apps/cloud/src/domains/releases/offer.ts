import { createHash } from 'node:crypto';
import { compareVersions, isDottedVersion, isSingleArtifactForm, type ReleaseArtifact, type UpgradeOffer } from '@vend/protocol';

/**
 * The offer decision (spec 2 §3, §4.5): what one cabinet is told by `/cabinet/upgrade`. Pure: the
 * caller loads the registry, the rollout and the pin; nothing here reads a clock, a store or a
 * random source, so the same inputs always give the same answer.
 */

/**
 * A published release as the decision needs it: the signed fields, the carrier and the publish order.
 * `artifacts` is every artifact in canonical order (one, for x64, for a single-artifact release);
 * `sha256`/`size`/`url` repeat the first of them (the registry's single-artifact columns).
 */
export interface OfferableRelease {
  version: string;
  sha256: string;
  size: number;
  url: string;
  artifacts: readonly ReleaseArtifact[];
  migration: boolean;
  minFrom: string | null;
  signature: string;
  signatureAlg: 'ed25519';
  sequence: number;
}

export const ROLLOUT_PHASES = ['rolling', 'held', 'complete'] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

export interface RolloutPolicy {
  targetVersion: string;
  phase: RolloutPhase;
  canary: readonly string[];
  percent: number;
  allowDowngrade: boolean;
}

export interface PinPolicy {
  version: string;
}

export interface OfferInput {
  /** The version the cabinet runs: the query's `agentVersion`, else the last it reported; null if it never reported one. */
  running: string | null;
  /** The architecture the cabinet reports (`process.arch`); null when its agent never reported one. */
  arch: string | null;
  machineCode: string;
  releases: readonly OfferableRelease[];
  rollout: RolloutPolicy | null;
  pin: PinPolicy | null;
}

/** Why the cabinet is (or is not) offered something: shown by the per-machine view. */
export type OfferReason =
  | 'no-rollout'
  | 'not-in-cohort'
  | 'held'
  | 'target-unpublished'
  | 'unreadable-version'
  | 'on-target'
  | 'newer-than-target'
  | 'first-install'
  | 'upgrade'
  | 'migration-rung'
  | 'stepping-stone'
  | 'below-floor'
  | 'downgrade'
  | 'no-artifact-for-arch'
  | 'arch-unknown';

export interface OfferDecision {
  offer: UpgradeOffer | null;
  reason: OfferReason;
  /** The version this cabinet is being moved to (the pin's or the rollout's), null when it is told nothing. */
  target: string | null;
  /** True when a pin decided, rather than the rollout. */
  pinned: boolean;
}

/**
 * The cabinet's bucket for percentage rollouts: the first four bytes of
 * SHA-256(`<machineCode>\n<targetVersion>`) as an unsigned big-endian integer, mod 100. Stable for a
 * machine and a target (raising the percent only ever adds machines); a new target draws a fresh
 * sample, so the same cabinets are not always first.
 */
export function cohortBucket(machineCode: string, targetVersion: string): number {
  const digest = createHash('sha256').update(`${machineCode}\n${targetVersion}`, 'utf8').digest();
  return digest.readUInt32BE(0) % 100;
}

/** Canary machines always; the rest of the fleet when its bucket is below the percent. */
export function inCohort(machineCode: string, rollout: Pick<RolloutPolicy, 'targetVersion' | 'canary' | 'percent'>): boolean {
  if (rollout.canary.includes(machineCode)) return true;
  return rollout.percent > 0 && cohortBucket(machineCode, rollout.targetVersion) < rollout.percent;
}

const below = (a: string, b: string) => compareVersions(a, b) < 0;

function find(releases: readonly OfferableRelease[], version: string): OfferableRelease | undefined {
  return releases.find((r) => compareVersions(r.version, version) === 0);
}

/**
 * The release to install next on the way up from `running` to `step`, honouring signed floors:
 * when `step.minFrom` is above the running version, a published release at or above that floor
 * (and above the running version) is offered first — the highest one the cabinet can install
 * directly, else the highest one, resolved the same way. With no such release the step itself is
 * offered and the cabinet reports itself blocked.
 */
function throughFloors(
  running: string,
  step: OfferableRelease,
  releases: readonly OfferableRelease[],
): { release: OfferableRelease; via: 'direct' | 'stone' | 'blocked' } {
  if (step.minFrom === null || !below(running, step.minFrom)) return { release: step, via: 'direct' };
  const floor = step.minFrom;
  const stones = releases
    .filter((r) => below(running, r.version) && !below(r.version, floor) && below(r.version, step.version))
    .sort((a, b) => compareVersions(b.version, a.version));
  if (stones.length === 0) return { release: step, via: 'blocked' };
  const direct = stones.find((r) => r.minFrom === null || !below(running, r.minFrom));
  if (direct) return { release: direct, via: 'stone' };
  const next = throughFloors(running, stones[0]!, releases);
  return { release: next.release, via: next.via === 'blocked' ? 'blocked' : 'stone' };
}

/**
 * The artifact of `r` this cabinet may be offered: the one for its architecture. A cabinet that never
 * reported one runs an agent from before architectures were signed — an x64 tree that verifies only the
 * single-artifact form — so it gets a single-artifact x64 release and nothing else.
 */
function pickArtifact(r: OfferableRelease, arch: string | null): { artifact: ReleaseArtifact } | { reason: 'no-artifact-for-arch' | 'arch-unknown' } {
  if (arch === null) return isSingleArtifactForm(r.artifacts) ? { artifact: r.artifacts[0]! } : { reason: 'arch-unknown' };
  const artifact = r.artifacts.find((a) => a.arch === arch);
  return artifact ? { artifact } : { reason: 'no-artifact-for-arch' };
}

function toOffer(r: OfferableRelease, a: ReleaseArtifact, target: string, allowDowngrade: boolean): UpgradeOffer {
  return {
    version: r.version,
    sha256: a.sha256,
    size: a.size,
    url: a.url,
    arch: a.arch,
    // the whole list only when the release signs the v2 form: an older agent verifies a single x64 artifact without it
    ...(isSingleArtifactForm(r.artifacts) ? {} : { artifacts: r.artifacts.map((x) => ({ ...x })) }),
    migration: r.migration,
    minFrom: r.minFrom,
    signature: r.signature,
    signatureAlg: r.signatureAlg,
    sequence: r.sequence,
    target,
    isFinalStep: compareVersions(r.version, target) === 0,
    allowDowngrade,
  };
}

/** The decision with its reason (see `decideOffer`). */
export function decide(input: OfferInput): OfferDecision {
  const { running, arch, machineCode, releases, rollout, pin } = input;
  let targetVersion: string;
  let allowDowngrade: boolean;
  if (pin) {
    // A pin outranks the rollout in both directions, whatever its phase.
    targetVersion = pin.version;
    allowDowngrade = true;
  } else {
    if (!rollout) return { offer: null, reason: 'no-rollout', target: null, pinned: false };
    if (!inCohort(machineCode, rollout)) return { offer: null, reason: 'not-in-cohort', target: null, pinned: false };
    // Held: already-upgraded cabinets keep the version; nobody else is offered anything.
    if (rollout.phase === 'held') return { offer: null, reason: 'held', target: rollout.targetVersion, pinned: false };
    targetVersion = rollout.targetVersion;
    allowDowngrade = rollout.allowDowngrade;
  }
  const pinned = pin !== null;
  const target = find(releases, targetVersion);
  if (!target) return { offer: null, reason: 'target-unpublished', target: targetVersion, pinned };
  const decided = (offer: UpgradeOffer | null, reason: OfferReason): OfferDecision => ({ offer, reason, target: target.version, pinned });
  // The release to install, as the artifact for this cabinet's architecture; none for it: no offer at all, never another one's binary.
  const offering = (release: OfferableRelease, down: boolean, reason: OfferReason): OfferDecision => {
    const picked = pickArtifact(release, arch);
    return 'artifact' in picked ? decided(toOffer(release, picked.artifact, target.version, down), reason) : decided(null, picked.reason);
  };

  // Never reported a version: offered the target directly.
  if (running === null) return offering(target, allowDowngrade, 'first-install');
  if (!isDottedVersion(running)) return decided(null, 'unreadable-version');

  const cmp = compareVersions(running, target.version);
  if (cmp === 0) return decided(null, 'on-target');
  if (cmp > 0) {
    // Going down happens only under allowDowngrade (a pin, or a rollback rollout); straight to the target.
    return allowDowngrade ? offering(target, true, 'downgrade') : decided(null, 'newer-than-target');
  }

  // Going up: the lowest migration rung above the running version and below the target comes first;
  // every other release in between is skipped.
  const rung = releases
    .filter((r) => r.migration && below(running, r.version) && below(r.version, target.version))
    .sort((a, b) => compareVersions(a.version, b.version))[0];
  const step = rung ?? target;
  const { release, via } = throughFloors(running, step, releases);
  const reason: OfferReason = via === 'blocked' ? 'below-floor' : via === 'stone' ? 'stepping-stone' : rung ? 'migration-rung' : 'upgrade';
  return offering(release, allowDowngrade, reason);
}

/** The offer for one cabinet, or null: it is told nothing. */
export function decideOffer(input: OfferInput): UpgradeOffer | null {
  return decide(input).offer;
}
