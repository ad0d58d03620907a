import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as tar from 'tar';
import { parseReleaseSecretKey, verifyReleaseSignature } from '@vend/protocol';
import { EXIT_CODES, main } from './cli.ts';
import { CliError } from './errors.ts';
import { keygen, loadSecretKey } from './keys.ts';
import { listTree, packRelease } from './pack.ts';
import { signManifest } from './sign.ts';
import { artifactName, checkArtifact, uploadArtifact } from './upload.ts';
import { silentProgress } from './progress.ts';

/** vendctl's local commands on real files in a temp directory: keygen, pack, sign, artifact checks and uploads. */

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'vendctl-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tree(root: string, mode = 0o644): string {
  const t = path.join(root, 'tree');
  fs.mkdirSync(path.join(t, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(t, 'lib/deep'), { recursive: true });
  fs.writeFileSync(path.join(t, 'bin/vend-agent'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  fs.writeFileSync(path.join(t, 'lib/b.js'), 'b\n', { mode });
  fs.writeFileSync(path.join(t, 'lib/a.js'), 'a\n', { mode });
  fs.writeFileSync(path.join(t, 'lib/deep/c.json'), '{}\n', { mode });
  return t;
}

async function code(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (e) {
    if (e instanceof CliError) return e.exitCode;
    throw e;
  }
}

describe('pack', () => {
  it('is deterministic: the same tree gives the same bytes whatever its mtimes and umask-dependent modes', async () => {
    const a = tmp();
    const b = tmp();
    tree(a, 0o644);
    const tb = tree(b, 0o664);
    fs.utimesSync(path.join(tb, 'lib/a.js'), new Date('2019-05-05'), new Date('2019-05-05'));
    const ra = await packRelease(path.join(a, 'tree'), '1.0.0', path.join(a, 'out.tar.gz'));
    const rb = await packRelease(tb, '1.0.0', path.join(b, 'out.tar.gz'));
    expect(ra.sha256).toBe(rb.sha256);
    expect(fs.readFileSync(ra.file).equals(fs.readFileSync(rb.file))).toBe(true);
    expect(ra.entries).toEqual(['bin/', 'bin/vend-agent', 'lib/', 'lib/a.js', 'lib/b.js', 'lib/deep/', 'lib/deep/c.json']);
  });

  it('writes sorted members with a fixed mtime, no owner, and 0755/0644 modes; extracting gives the tree back', async () => {
    const d = tmp();
    const t = tree(d);
    const r = await packRelease(t, '1.0.0', path.join(d, 'out.tar.gz'));
    const seen: { path: string; mode: number; mtime: number; uid: number; type: string }[] = [];
    await tar.t({
      file: r.file,
      onReadEntry: (e) => void seen.push({ path: e.path, mode: e.mode ?? -1, mtime: e.mtime?.getTime() ?? -1, uid: e.uid ?? 0, type: e.type }),
    });
    expect(seen.map((e) => e.path)).toEqual(r.entries);
    expect(new Set(seen.map((e) => e.mtime))).toEqual(new Set([Date.UTC(2000, 0, 1)]));
    expect(seen.every((e) => e.uid === 0)).toBe(true);
    expect(seen.filter((e) => e.type === 'Directory' || e.path === 'bin/vend-agent').every((e) => e.mode === 0o755)).toBe(true);
    expect(seen.filter((e) => e.path.endsWith('.js') || e.path.endsWith('.json')).every((e) => e.mode === 0o644)).toBe(true);
    const x = path.join(d, 'x');
    fs.mkdirSync(x);
    await tar.x({ file: r.file, cwd: x, strict: true });
    expect(fs.readFileSync(path.join(x, 'lib/deep/c.json'), 'utf8')).toBe('{}\n');
    expect(fs.readFileSync(path.join(x, 'bin/vend-agent'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
  });

  it('refuses a tree with a symbolic link (65), a VERSION file that disagrees (65), a missing dir (66), an existing output (73)', async () => {
    const d = tmp();
    const t = tree(d);
    fs.symlinkSync('../bin/vend-agent', path.join(t, 'lib/link'));
    expect(await code(listTree(t))).toBe(EXIT_CODES.dataError);
    fs.rmSync(path.join(t, 'lib/link'));
    fs.writeFileSync(path.join(t, 'VERSION'), '2.0.0\n');
    expect(await code(packRelease(t, '1.0.0', path.join(d, 'o.tar.gz')))).toBe(EXIT_CODES.dataError);
    expect(await code(packRelease(t, '2.0.0', path.join(d, 'o.tar.gz')))).toBe(0);
    expect(await code(packRelease(t, '2.0.0', path.join(d, 'o.tar.gz')))).toBe(EXIT_CODES.cantCreate);
    expect(await code(packRelease(t, '2.0.0', path.join(d, 'o.tar.gz'), { force: true }))).toBe(0);
    expect(await code(packRelease(path.join(d, 'missing'), '2.0.0', path.join(d, 'p.tar.gz')))).toBe(EXIT_CODES.noInput);
    expect(await code(packRelease(t, 'v2', path.join(d, 'p.tar.gz')))).toBe(EXIT_CODES.usage);
    expect(await code(packRelease(t, '2.0.0', path.join(t, 'inside.tar.gz')))).toBe(EXIT_CODES.usage);
    expect(fs.readdirSync(d).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('keygen and sign', () => {
  it('keygen writes the seed 0600 and the public key, and never replaces them without --force', async () => {
    const d = path.join(tmp(), 'keys');
    const r = await keygen(d);
    expect(fs.statSync(d).mode & 0o777).toBe(0o700);
    expect(fs.statSync(r.privateKeyFile).mode & 0o777).toBe(0o600);
    const pair = parseReleaseSecretKey(fs.readFileSync(r.privateKeyFile, 'utf8'))!;
    expect(Buffer.from(pair.publicKey).toString('base64')).toBe(fs.readFileSync(r.publicKeyFile, 'utf8').trim());
    expect(await code(keygen(d))).toBe(EXIT_CODES.cantCreate);
    const again = await keygen(d, { force: true });
    expect(again.publicKey).not.toBe(r.publicKey);
  });

  it('sign validates like the cloud, warns about a loose key file, and refuses bad keys', async () => {
    const d = tmp();
    const k = await keygen(path.join(d, 'k'));
    const base = { keyFile: k.privateKeyFile, version: '1.0.0', url: 'https://a.vend.test/agent/x.tar.gz', sha256: 'a'.repeat(64), size: '10' };
    const { manifest } = await signManifest(base);
    expect(verifyReleaseSignature(manifest, parseReleaseSecretKey(fs.readFileSync(k.privateKeyFile, 'utf8'))!.publicKey)).toBe(true);
    expect(await code(signManifest({ ...base, size: '1e3' }))).toBe(EXIT_CODES.usage);
    expect(await code(signManifest({ ...base, url: 'http://a.vend.test/agent/x.tar.gz' }))).toBe(EXIT_CODES.usage);
    expect(await code(signManifest({ ...base, sha256: 'A'.repeat(64) }))).toBe(EXIT_CODES.usage);
    expect(await code(signManifest({ ...base, keyFile: path.join(d, 'none') }))).toBe(EXIT_CODES.noInput);
    fs.writeFileSync(path.join(d, 'bad.key'), 'not a key\n', { mode: 0o600 });
    expect(await code(signManifest({ ...base, keyFile: path.join(d, 'bad.key') }))).toBe(EXIT_CODES.dataError);
    fs.chmodSync(k.privateKeyFile, 0o644);
    const warnings: string[] = [];
    await loadSecretKey(k.privateKeyFile, (l) => warnings.push(l));
    expect(warnings.join()).toMatch(/readable by group or others/);
  });

  it('the sign command writes the manifest atomically and refuses to overwrite it', async () => {
    const d = tmp();
    const k = await keygen(path.join(d, 'k'));
    const args = [
      'node',
      'vendctl',
      'sign',
      '--key',
      k.privateKeyFile,
      '--version',
      '1.0.0',
      '--url',
      'https://a.vend.test/agent/x.tar.gz',
      '--sha256',
      'b'.repeat(64),
      '--size',
      '7',
      '--migration',
      '--out',
      path.join(d, 'm.json'),
    ];
    const quiet = { env: {}, stdout: () => {}, stderr: () => {}, progress: silentProgress };
    expect(await main(args, quiet)).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(d, 'm.json'), 'utf8'))).toMatchObject({ version: '1.0.0', migration: true, size: 7, signatureAlg: 'ed25519' });
    expect(await main(args, quiet)).toBe(EXIT_CODES.cantCreate);
    expect(await main([...args, '--force'], quiet)).toBe(0);
  });
});

describe('artifacts', () => {
  it('checks size and digest, uploads under the URL file name atomically, and keeps identical copies', async () => {
    const d = tmp();
    const file = path.join(d, 'a.tar.gz');
    fs.writeFileSync(file, 'artifact bytes');
    const real = { sha256: createHash('sha256').update('artifact bytes').digest('hex'), size: 14 };
    expect(await code(checkArtifact(file, real))).toBe(0);
    expect(await code(checkArtifact(file, { ...real, size: 15 }))).toBe(EXIT_CODES.dataError);
    expect(await code(checkArtifact(file, { ...real, sha256: 'f'.repeat(64) }))).toBe(EXIT_CODES.dataError);
    const manifest = {
      version: '1.0.0',
      url: 'https://a.vend.test/agent/vend-agent-1.0.0.tar.gz',
      migration: false,
      signature: '',
      signatureAlg: 'ed25519' as const,
      ...real,
    };
    const www = path.join(d, 'www');
    fs.mkdirSync(www);
    const target = await uploadArtifact(file, www, manifest);
    expect(target).toBe(path.join(www, 'vend-agent-1.0.0.tar.gz'));
    expect(fs.readFileSync(target, 'utf8')).toBe('artifact bytes');
    expect(await uploadArtifact(file, www, manifest)).toBe(target);
    fs.writeFileSync(target, 'other bytes!!!');
    expect(await code(uploadArtifact(file, www, manifest))).toBe(EXIT_CODES.cantCreate);
    expect(fs.readdirSync(www)).toEqual(['vend-agent-1.0.0.tar.gz']);
    expect(await code(uploadArtifact(file, path.join(d, 'nowhere'), manifest))).toBe(EXIT_CODES.noInput);
    expect(() => artifactName({ url: 'https://a.vend.test/agent/' })).toThrow(CliError);
    expect(artifactName({ url: 'https://a.vend.test/agent/x.tar.gz?sig=1' })).toBe('x.tar.gz');
  });
});
