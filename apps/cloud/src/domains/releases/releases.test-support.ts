import { createHash } from 'node:crypto';
import {
  parseReleaseSecretKey,
  signRelease,
  type MultiArchManifest,
  type ReleaseArch,
  type ReleaseManifest,
  type SignedReleaseFields,
  type SingleArtifactManifest,
} from '@vend/protocol';
import { SANDBOX_RELEASES } from '../../config.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { call, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Answer, type Body } from '../../testing/answers.ts';

/** Test factories for the releases suites (never imported by production code). */

export const ADMIN = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey } as const;
export const ALICE = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey } as const;
export const BOB = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey } as const;
export const FACTORY = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey } as const;

export const PREFIX = SANDBOX_RELEASES.artifactUrlPrefix;
/** The sandbox's documented signing key: what the test server trusts by default. */
export const SANDBOX_KEY = parseReleaseSecretKey(SANDBOX_RELEASES.privateKey)!;
/** Any other key: its signatures must not verify. */
export const OTHER_KEY = parseReleaseSecretKey('a'.repeat(64))!;

export interface ManifestOptions {
  minFrom?: string | null;
  migration?: boolean;
  sha256?: string;
  size?: number;
  url?: string;
  secretKey?: Uint8Array;
}

/** A signed manifest for `version`, with a digest derived from the version unless given. */
export function manifest(version: string, o: ManifestOptions = {}): SingleArtifactManifest {
  const fields: SignedReleaseFields = {
    version,
    sha256: o.sha256 ?? createHash('sha256').update(`artifact ${version}`).digest('hex'),
    size: o.size ?? 10_000 + version.length,
    url: o.url ?? `${PREFIX}vend-agent-${version}.tar.gz`,
    migration: o.migration ?? false,
    minFrom: o.minFrom ?? null,
  };
  return signRelease(fields, o.secretKey ?? SANDBOX_KEY.secretKey);
}

/** A signed manifest for `version` with one artifact for each of `arches` (digest and size derived from version and arch). */
export function multiArchManifest(
  version: string,
  arches: readonly ReleaseArch[],
  o: Omit<ManifestOptions, 'sha256' | 'size' | 'url'> = {},
): MultiArchManifest {
  const artifacts = arches.map((arch) => ({
    arch,
    sha256: createHash('sha256').update(`artifact ${version} ${arch}`).digest('hex'),
    size: 20_000 + arch.length,
    url: `${PREFIX}vend-agent-${version}-linux-${arch}.tar.gz`,
  }));
  return signRelease(
    { version, artifacts, migration: o.migration ?? false, minFrom: o.minFrom ?? null },
    o.secretKey ?? SANDBOX_KEY.secretKey,
  ) as MultiArchManifest;
}

export function post<T = unknown>(t: TestServer, path: string, json: unknown, headers: Record<string, string> = ADMIN): Promise<Answer<T>> {
  return call<Body<T>>(t.url, 'POST', path, { headers, json });
}

export function get<T = unknown>(t: TestServer, path: string, headers: Record<string, string> = ADMIN, query?: Record<string, string>): Promise<Answer<T>> {
  return call<Body<T>>(t.url, 'GET', path, { headers, ...(query ? { query } : {}) });
}

export function del<T = unknown>(t: TestServer, path: string, headers: Record<string, string> = ADMIN): Promise<Answer<T>> {
  return call<Body<T>>(t.url, 'DELETE', path, { headers });
}

export function put<T = unknown>(t: TestServer, path: string, json: unknown, headers: Record<string, string> = ADMIN): Promise<Answer<T>> {
  return call<Body<T>>(t.url, 'PUT', path, { headers, json });
}

export interface PublishedRecord {
  version: string;
  sequence: number;
  minFrom: string | null;
  migration: boolean;
  created: boolean;
  offered: boolean;
  signature: string;
}

/** Publishes and expects success. */
export async function publish(t: TestServer, m: ReleaseManifest): Promise<PublishedRecord> {
  const r = await expectStatus(post<PublishedRecord>(t, '/api/v1/agent/releases', m), 200);
  return r.body.data;
}

export async function publishAll(t: TestServer, ...versions: (string | [string, ManifestOptions])[]): Promise<void> {
  for (const v of versions) await publish(t, typeof v === 'string' ? manifest(v) : manifest(v[0], v[1]));
}

export function setRollout(t: TestServer, body: Record<string, unknown>) {
  return put<Record<string, unknown>>(t, '/api/v1/agent/rollout', body);
}

/** Clears releases, rollout and pins between tests (the seed fleet stays). */
export async function clearReleases(t: TestServer): Promise<void> {
  const db = t.ctx.database.db;
  await db.deleteFrom('agent_pins').execute();
  await db.deleteFrom('agent_rollout').execute();
  await db.deleteFrom('agent_releases').execute();
}

export async function countRows(t: TestServer): Promise<{ releases: number; rollout: number; pins: number; audit: number }> {
  const db = t.ctx.database.db;
  const n = async (table: 'agent_releases' | 'agent_rollout' | 'agent_pins' | 'audit_log') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { releases: await n('agent_releases'), rollout: await n('agent_rollout'), pins: await n('agent_pins'), audit: await n('audit_log') };
}

/** Sets the architecture a machine last reported (as register/heartbeat would). */
export async function setAgentArch(t: TestServer, machineNo: string, arch: string | null): Promise<void> {
  await t.ctx.database.db.updateTable('machines').set({ agent_arch: arch }).where('machine_no', '=', machineNo).execute();
}

/** Sets what a machine last reported as its agent version (as register/heartbeat would). */
export async function setAgentVersion(t: TestServer, machineNo: string, version: string | null): Promise<void> {
  await t.ctx.database.db.updateTable('machines').set({ agent_version: version }).where('machine_no', '=', machineNo).execute();
}
