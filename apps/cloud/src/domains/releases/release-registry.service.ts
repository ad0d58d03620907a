import { isSingleArtifactForm, parseReleasePublicKey, releaseArtifacts, type Clock, type ReleaseManifest } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AgentReleaseRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { AppError, conflict } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { judgePublication, versionKey, type Trust } from './releases.rules.ts';
import { toRecord, toRelease } from './release-views.ts';
import type { ReleaseRecord } from './releases.schemas.ts';

/** Tries of a publication that lost a race for its sequence number or version (a unique violation). */
const PUBLISH_ATTEMPTS = 4;

export interface ReleaseRegistryDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  config: Pick<Config, 'releases'>;
}

/** Versions a rollout or a pin names: the registry's `offered` flag. */
async function offeredVersions(repos: Repos): Promise<Set<string>> {
  const [rollout, pinned] = await Promise.all([repos.releases.rollout(), repos.releases.pinnedVersions()]);
  return new Set([...(rollout ? [rollout.target_version] : []), ...pinned]);
}

/** The agent release registry (spec 2 §4.5): signed manifests published in order, listed with whether anything offers them. */
export class ReleaseRegistryService {
  constructor(private readonly deps: ReleaseRegistryDeps) {}

  private trust(): Trust {
    const { publicKey: configured, artifactUrlPrefix } = this.deps.config.releases;
    const publicKey = parseReleasePublicKey(configured);
    if (!publicKey) throw new AppError('unavailable', 'No release publishing key is configured');
    return { publicKey, artifactUrlPrefix };
  }

  async list(): Promise<{ total: number; records: ReleaseRecord[] }> {
    const repos = this.deps.store.repos;
    const [rows, offered] = await Promise.all([repos.releases.releases(), offeredVersions(repos)]);
    return { total: rows.length, records: rows.map((r) => toRecord(r, offered)) };
  }

  /**
   * Publishes a signed manifest under every rule of spec 2 §4.5 (releases.rules.ts). A new version
   * gets the next sequence number; the same version with the same signed bytes answers the existing
   * record (`created` false). Publishing offers the release to nobody: only a rollout or a pin does.
   */
  async publish(by: Principal, manifest: ReleaseManifest): Promise<ReleaseRecord & { created: boolean }> {
    const trust = this.trust();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.store.transaction(async (tx) => {
          const repo = tx.releases;
          await repo.lockRegistry();
          const rows = await repo.releases();
          const verdict = judgePublication(
            manifest,
            rows.map((r) => ({ ...toRelease(r), row: r })),
            trust,
          );
          if (verdict.kind === 'existing') return { ...toRecord(verdict.release.row, await offeredVersions(tx)), created: false };
          const now = this.deps.clock.now();
          // the single-artifact columns hold the first artifact; the whole list only for a release signed in the v2 form
          const artifacts = releaseArtifacts(manifest);
          const first = artifacts[0]!;
          const row: AgentReleaseRow = {
            version: manifest.version,
            version_key: versionKey(manifest.version),
            sha256: first.sha256,
            size: first.size,
            url: first.url,
            artifacts_json: isSingleArtifactForm(artifacts) ? null : JSON.stringify(artifacts),
            migration: manifest.migration ? 1 : 0,
            min_from: manifest.minFrom ?? null,
            signature: manifest.signature,
            signature_alg: manifest.signatureAlg,
            sequence: await repo.nextSequence(),
            published_at: now,
            published_by: by.operatorEmail,
            published_key: by.credentialId,
          };
          await repo.insertRelease(row);
          await this.deps.audit.record(tx, by, 'agent.release.publish', `release:${row.version}`);
          return { ...toRecord(row, new Set()), created: true };
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (attempt >= PUBLISH_ATTEMPTS) throw conflict('another publication raced this one; send it again');
      }
    }
  }
}
