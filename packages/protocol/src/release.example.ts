import { Buffer } from 'node:buffer';
import {
  RELEASE_SIGNED_FIELDS,
  canonicalReleaseBytes,
  canonicalReleaseText,
  encodeBase64,
  parseReleaseSecretKey,
  signRelease,
  type MultiArchReleaseFields,
  type ReleaseManifest,
  type SignedReleaseFields,
} from './release.ts';

/**
 * The worked example of docs/release-signing.md, computed by the code that signs releases. The key
 * is RFC 8032 §7.1 TEST 1's, public on purpose: it signs this example and nothing else.
 */
export const EXAMPLE_SEED_HEX = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';

export const EXAMPLE_FIELDS: SignedReleaseFields = {
  version: '1.4.0',
  sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  size: 18_342_912,
  url: 'https://artifacts.example.com/agent/vend-agent-1.4.0.tar.gz',
  migration: false,
  minFrom: '1.2.0',
};

export interface SigningExample {
  publicKeyBase64: string;
  canonicalText: string;
  canonicalHex: string;
  manifest: ReleaseManifest;
  /** The same release without a floor: the `minFrom` line is bare. */
  noFloorText: string;
  noFloorManifest: ReleaseManifest;
}

export function signingExample(): SigningExample {
  const pair = parseReleaseSecretKey(EXAMPLE_SEED_HEX);
  if (!pair) throw new Error('example key does not parse');
  const noFloor = { ...EXAMPLE_FIELDS, minFrom: null };
  return {
    publicKeyBase64: encodeBase64(pair.publicKey),
    canonicalText: canonicalReleaseText(EXAMPLE_FIELDS),
    canonicalHex: Buffer.from(canonicalReleaseBytes(EXAMPLE_FIELDS)).toString('hex'),
    manifest: signRelease(EXAMPLE_FIELDS, pair.secretKey),
    noFloorText: canonicalReleaseText(noFloor),
    noFloorManifest: signRelease(noFloor, pair.secretKey),
  };
}

/** The Markdown block docs/release-signing.md embeds (regenerate with `npx tsx scripts/release-signing-example.ts`). */
export function renderSigningExample(): string {
  const e = signingExample();
  const fence = '```';
  return [
    `Signing key (RFC 8032 TEST 1 seed, hex): \`${EXAMPLE_SEED_HEX}\``,
    `Public key (base64): \`${e.publicKeyBase64}\``,
    '',
    `Signed fields, in order: ${RELEASE_SIGNED_FIELDS.map((f) => `\`${f}\``).join(', ')}.`,
    '',
    'Canonical signed bytes (each line ends in one LF, including the last):',
    '',
    `${fence}text`,
    e.canonicalText.trimEnd(),
    fence,
    '',
    'The same bytes in hex:',
    '',
    `${fence}text`,
    ...(e.canonicalHex.match(/.{1,96}/g) ?? []),
    fence,
    '',
    'The manifest `vendctl sign` writes for it:',
    '',
    `${fence}json`,
    JSON.stringify(e.manifest, null, 2),
    fence,
    '',
    'Without a floor, the `minFrom` line is the bare key:',
    '',
    `${fence}text`,
    e.noFloorText.trimEnd(),
    fence,
    '',
    `and the signature becomes \`${e.noFloorManifest.signature}\`.`,
  ].join('\n');
}

/** The same release shipped for x64 and arm64: the v2 form (docs/release-signing.md, "Artifacts per architecture"). */
export const EXAMPLE_MULTI_ARCH_FIELDS: MultiArchReleaseFields = {
  version: '1.4.0',
  artifacts: [
    {
      arch: 'x64',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 18_342_912,
      url: 'https://artifacts.example.com/agent/vend-agent-1.4.0-linux-x64.tar.gz',
    },
    {
      arch: 'arm64',
      sha256: '5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9',
      size: 17_905_664,
      url: 'https://artifacts.example.com/agent/vend-agent-1.4.0-linux-arm64.tar.gz',
    },
  ],
  migration: false,
  minFrom: '1.2.0',
};

/** The Markdown block for the multi-architecture example (same key as `renderSigningExample`). */
export function renderMultiArchExample(): string {
  const pair = parseReleaseSecretKey(EXAMPLE_SEED_HEX);
  if (!pair) throw new Error('example key does not parse');
  const fence = '```';
  return [
    'Canonical signed bytes of 1.4.0 with an x64 and an arm64 artifact:',
    '',
    `${fence}text`,
    canonicalReleaseText(EXAMPLE_MULTI_ARCH_FIELDS).trimEnd(),
    fence,
    '',
    'The manifest `vendctl sign --artifact x64:… --artifact arm64:…` writes for it:',
    '',
    `${fence}json`,
    JSON.stringify(signRelease(EXAMPLE_MULTI_ARCH_FIELDS, pair.secretKey), null, 2),
    fence,
  ].join('\n');
}
