import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ROLLOUT_PHASES, ReleaseManifest, isDottedVersion, releaseArtifacts, type ReleaseArtifact } from '@vend/protocol';
import { CloudClient, type RolloutInput } from './cloud.ts';
import { CliError, EXIT_CODES } from './errors.ts';
import { readText, writeFileAtomic } from './files.ts';
import { describeRollout, renderFleet, renderReleases } from './format.ts';
import { keygen } from './keys.ts';
import { packRelease } from './pack.ts';
import { terminalProgress, type Progress } from './progress.ts';
import { parseArtifactOption, signManifest, type ArtifactOption } from './sign.ts';
import { checkArtifact, uploadArtifact } from './upload.ts';

export { EXIT_CODES } from './errors.ts';

/** What the CLI needs from the outside world; tests replace any of it. */
export interface CliDeps {
  /** Where VEND_CLOUD_URL and VEND_API_KEY are read from (flags win). */
  env?: Record<string, string | undefined>;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  progress?: Progress;
}

function version(flag: string) {
  return (v: string): string => {
    if (!isDottedVersion(v)) throw new InvalidArgumentError(`${flag} must be dotted-numeric, e.g. 1.4.2`);
    return v;
  };
}

function percent(v: string): number {
  const n = Number(v);
  if (!/^\d{1,3}$/.test(v) || n > 100) throw new InvalidArgumentError('must be an integer 0..100');
  return n;
}

function seconds(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 3600) throw new InvalidArgumentError('must be an integer 1..3600');
  return n;
}

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function collect<T>(parse: (v: string) => T) {
  return (v: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(v)];
}

/** `[<arch>=]<file>`: the artifact file for one architecture of the manifest (the arch may be left out when it has one). */
function artifactFile(v: string): { arch: string | null; file: string } {
  const m = /^([a-z][a-z0-9_]*)=(.+)$/.exec(v);
  return m ? { arch: m[1]!, file: m[2]! } : { arch: null, file: v };
}

/** Pairs every `--artifact` file with the manifest's artifact for its architecture; all of them or none. */
function pairArtifacts(
  given: readonly { arch: string | null; file: string }[],
  artifacts: readonly ReleaseArtifact[],
): { file: string; artifact: ReleaseArtifact }[] {
  const arches = artifacts.map((a) => a.arch).join(', ');
  const pairs = given.map((g) => {
    if (g.arch === null) {
      if (artifacts.length !== 1)
        throw new CliError(EXIT_CODES.usage, `the manifest has artifacts for ${arches}: name each one's architecture, --artifact <arch>=<file>`);
      return { file: g.file, artifact: artifacts[0]! };
    }
    const artifact = artifacts.find((a) => a.arch === g.arch);
    if (!artifact) throw new CliError(EXIT_CODES.usage, `--artifact ${g.arch}=…: the manifest has no ${g.arch} artifact (it has ${arches})`);
    return { file: g.file, artifact };
  });
  const named = new Set(pairs.map((p) => p.artifact.arch));
  if (named.size !== pairs.length) throw new CliError(EXIT_CODES.usage, 'one --artifact per architecture');
  const missing = artifacts.filter((a) => !named.has(a.arch)).map((a) => a.arch);
  if (pairs.length > 0 && missing.length > 0)
    throw new CliError(EXIT_CODES.usage, `no --artifact for ${missing.join(', ')}: give every architecture's file, or none`);
  return pairs;
}

interface CloudFlags {
  cloud?: string;
  apiKey?: string;
  timeout?: number;
}

function withCloudOptions(cmd: Command): Command {
  return cmd
    .option('--cloud <url>', 'cloud base URL (default: $VEND_CLOUD_URL)')
    .option('--api-key <key>', 'full-admin API key (default: $VEND_API_KEY)')
    .option('--timeout <seconds>', 'give up on the cloud after this long', seconds, 30);
}

export function buildProgram(deps: Required<CliDeps>): Command {
  const out = deps.stdout;
  const print = (text: string) => out(text.endsWith('\n') ? text : `${text}\n`);
  const json = (data: unknown) => out(`${JSON.stringify(data, null, 2)}\n`);

  const cloud = (flags: CloudFlags): CloudClient => {
    const url = flags.cloud ?? deps.env['VEND_CLOUD_URL'];
    const apiKey = flags.apiKey ?? deps.env['VEND_API_KEY'];
    if (!url) throw new CliError(EXIT_CODES.usage, 'no cloud URL: pass --cloud or set VEND_CLOUD_URL');
    if (!apiKey) throw new CliError(EXIT_CODES.usage, 'no API key: pass --api-key or set VEND_API_KEY');
    return new CloudClient({ url, apiKey, timeoutSeconds: flags.timeout ?? 30, progress: deps.progress });
  };

  const program = new Command('vendctl')
    .description('Sign, publish and roll out vend-agent releases')
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr })
    .showHelpAfterError('(vendctl --help lists every command)');

  program
    .command('keygen')
    .description('make a release-signing key pair: release-signing.key (mode 0600) and release-signing.pub')
    .requiredOption('--out <dir>', 'directory for the two key files (created 0700 when missing)')
    .option('--force', 'replace an existing key pair')
    .action(async (o: { out: string; force?: boolean }) => {
      const r = await keygen(o.out, { force: o.force ?? false });
      print(
        [
          `private key: ${r.privateKeyFile} (keep it offline; it signs every release)`,
          `public key:  ${r.publicKeyFile}`,
          `RELEASE_PUBLIC_KEY=${r.publicKey}`,
        ].join('\n'),
      );
    });

  program
    .command('pack')
    .description('pack a release tree into a deterministic .tar.gz (regular files and directories only); prints its sha256 and size')
    .argument('<dir>', 'the release tree')
    .requiredOption('--version <version>', 'the release version', version('--version'))
    .requiredOption('--out <file>', 'the archive to write (.tar.gz)')
    .option('--force', 'replace an existing archive')
    .option('--json', 'print {file, sha256, size, entries} as JSON')
    .action(async (dir: string, o: { version: string; out: string; force?: boolean; json?: boolean }) => {
      const r = await packRelease(dir, o.version, o.out, { force: o.force ?? false });
      if (o.json) return json({ file: r.file, version: o.version, sha256: r.sha256, size: r.size, entries: r.entries });
      print([`packed ${r.entries.length} entries into ${r.file}`, `sha256 ${r.sha256}`, `size ${r.size}`].join('\n'));
    });

  program
    .command('sign')
    .description('sign a release manifest offline with the release-signing key')
    .requiredOption('--key <file>', 'the private key file (from keygen)')
    .requiredOption('--version <version>', 'release version', version('--version'))
    .option('--url <url>', 'https URL of the (one, x64) artifact, under the trusted artifact prefix')
    .option('--sha256 <hex>', "the artifact's SHA-256 (64 lowercase hex)")
    .option('--size <bytes>', "the artifact's size in bytes")
    .option(
      '--artifact <arch:sha256:size:url>',
      'one artifact per architecture (x64, arm64), instead of --url/--sha256/--size; repeat for each',
      collect(parseArtifactOption),
    )
    .option('--min-from <version>', 'lowest running version this release may be installed over', version('--min-from'))
    .option('--migration', 'a migration rung: cabinets below it must install it and cannot skip it')
    .requiredOption('--out <file>', 'the manifest to write (JSON)')
    .option('--force', 'replace an existing manifest file')
    .option('--show-bytes', 'also print the exact bytes that were signed')
    .action(
      async (o: {
        key: string;
        version: string;
        url?: string;
        sha256?: string;
        size?: string;
        artifact?: ArtifactOption[];
        minFrom?: string;
        migration?: boolean;
        out: string;
        force?: boolean;
        showBytes?: boolean;
      }) => {
        const { manifest, canonical } = await signManifest(
          {
            keyFile: o.key,
            version: o.version,
            url: o.url,
            sha256: o.sha256,
            size: o.size,
            artifacts: o.artifact,
            minFrom: o.minFrom,
            migration: o.migration ?? false,
          },
          deps.stderr,
        );
        await writeFileAtomic(o.out, `${JSON.stringify(manifest, null, 2)}\n`, { force: o.force ?? false, what: o.out });
        print(`signed ${manifest.version} → ${o.out}`);
        if (o.showBytes) print(canonical);
      },
    );

  withCloudOptions(
    program
      .command('publish')
      .description('publish a signed manifest; optionally check its artifacts against it and upload them first')
      .argument('<manifest>', 'manifest.json from `vendctl sign`')
      .option(
        '--artifact <[arch=]file>',
        "an artifact, checked against its architecture's signed sha256 and size before anything is sent; repeat for each architecture (arch= may be left out when the manifest has one)",
        collect(artifactFile),
      )
      .option('--upload-to <dir>', 'copy the artifacts into this directory (served by the artifact host) before publishing; needs --artifact')
      .option('--json', 'print the registry record as JSON'),
  ).action(async (file: string, o: CloudFlags & { artifact?: { arch: string | null; file: string }[]; uploadTo?: string; json?: boolean }) => {
    if (o.uploadTo && !o.artifact) throw new CliError(EXIT_CODES.usage, '--upload-to needs --artifact');
    const client = cloud(o);
    let raw: unknown;
    try {
      raw = JSON.parse(await readText(file, `manifest ${file}`));
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(EXIT_CODES.dataError, `${file} is not JSON`);
    }
    const parsed = ReleaseManifest.safeParse(raw);
    if (!parsed.success)
      throw new CliError(
        EXIT_CODES.dataError,
        `${file} is not a release manifest: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
      );
    const manifest = parsed.data;
    const pairs = pairArtifacts(o.artifact ?? [], releaseArtifacts(manifest));
    // every file checked before any is uploaded, every upload done before the cloud hears of the release
    for (const p of pairs) await checkArtifact(p.file, p.artifact, deps.progress);
    if (o.uploadTo) {
      for (const p of pairs) {
        const target = await uploadArtifact(p.file, o.uploadTo, p.artifact, deps.progress);
        deps.stderr(`uploaded ${path.basename(p.file)} (${p.artifact.arch}) → ${target}\n`);
      }
    }
    const record = await client.publish(manifest);
    if (o.json) return json(record);
    print(
      record.created === false
        ? `${record.version} was already published with the same bytes (#${record.sequence}); nothing changed`
        : `published ${record.version} as #${record.sequence}; no cabinet is offered it until a rollout or pin names it`,
    );
  });

  withCloudOptions(program.command('releases').description('list the release registry').option('--json', 'print the records as JSON')).action(
    async (o: CloudFlags & { json?: boolean }) => {
      const r = await cloud(o).releases();
      if (o.json) return json(r.records);
      out(renderReleases(r.records));
    },
  );

  const rollout = program.command('rollout').description('the one fleet-wide rollout');
  withCloudOptions(
    rollout
      .command('set')
      .description('set the rollout (replaces the current one); rollback = an older version with --allow-downgrade')
      .requiredOption('--version <version>', 'target version (must be published)', version('--version'))
      .option('--canary <codes>', 'comma-separated machine codes that get it first', list)
      .option('--percent <n>', 'share 0..100 of the rest of the fleet (stable per machine)', percent)
      .option('--allow-downgrade', 'let cabinets above the target go down to it')
      .option('--note <text>', 'why, for the next person')
      .addOption(new Option('--phase <phase>', 'rolling (default), held or complete').choices(ROLLOUT_PHASES)),
  ).action(async (o: CloudFlags & { version: string; canary?: string[]; percent?: number; allowDowngrade?: boolean; note?: string; phase?: string }) => {
    const body: RolloutInput = { targetVersion: o.version };
    if (o.canary) body.canary = o.canary;
    if (o.percent !== undefined) body.percent = o.percent;
    if (o.allowDowngrade) body.allowDowngrade = true;
    if (o.note !== undefined) body.note = o.note;
    if (o.phase) body.phase = o.phase;
    print(describeRollout(await cloud(o).setRollout(body)));
  });
  withCloudOptions(rollout.command('hold').description('hold the rollout: nobody else is offered the target').requiredOption('--reason <text>', 'why')).action(
    async (o: CloudFlags & { reason: string }) => {
      print(describeRollout(await cloud(o).hold(o.reason)));
    },
  );
  withCloudOptions(rollout.command('resume').description('resume a held rollout')).action(async (o: CloudFlags) => {
    print(describeRollout(await cloud(o).resume()));
  });
  withCloudOptions(rollout.command('show').description('print the current rollout')).action(async (o: CloudFlags) => {
    print(describeRollout(await cloud(o).rollout()));
  });

  withCloudOptions(
    program
      .command('pin')
      .description('pin one cabinet to a published version (outranks the rollout, up or down)')
      .argument('<machineNo>', 'the cabinet')
      .requiredOption('--version <version>', 'published version', version('--version'))
      .requiredOption('--reason <text>', 'why (4 characters or more)'),
  ).action(async (machineNo: string, o: CloudFlags & { version: string; reason: string }) => {
    const r = await cloud(o).pin(machineNo, o.version, o.reason);
    print(
      `${r.machineNo} pinned to ${r.pin?.version ?? o.version}; runs ${r.agentVersion ?? 'nothing reported'}; ${r.offer ? `offered ${r.offer.version}` : `offered nothing (${r.offerReason})`}`,
    );
  });

  withCloudOptions(program.command('unpin').description("remove a cabinet's pin").argument('<machineNo>', 'the cabinet')).action(
    async (machineNo: string, o: CloudFlags) => {
      const r = await cloud(o).unpin(machineNo);
      print(r.removed ? `${r.machineNo} unpinned; the rollout decides again` : `${r.machineNo} had no pin`);
    },
  );

  withCloudOptions(
    program.command('fleet').description('the agent fleet view: versions, cohort, pins, deferrals, blocks').option('--json', 'print the view as JSON'),
  ).action(async (o: CloudFlags & { json?: boolean }) => {
    const f = await cloud(o).fleet();
    if (o.json) return json(f);
    out(renderFleet(f));
  });

  return program;
}

/** Runs one vendctl command; answers its exit code (EXIT_CODES, documented in README.md). */
export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  const full: Required<CliDeps> = {
    env: deps.env ?? process.env,
    stdout: deps.stdout ?? ((t) => void process.stdout.write(t)),
    stderr: deps.stderr ?? ((t) => void process.stderr.write(t)),
    progress: deps.progress ?? terminalProgress(process.stderr),
  };
  const program = buildProgram(full);
  const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];
  for (const c of everyCommand(program)) c.exitOverride();
  try {
    await program.parseAsync(argv);
    return EXIT_CODES.ok;
  } catch (e) {
    if (e instanceof CliError) {
      full.stderr(`vendctl: ${e.message}\n`);
      return e.exitCode;
    }
    const err = e as { code?: string; exitCode?: number };
    // --help and --version exit 0; every other commander error (unknown command or option, a missing
    // or invalid value, a bare `vendctl rollout`) is a usage error, already explained on stderr.
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) return err.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    full.stderr(`vendctl: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT_CODES.internal;
  }
}
