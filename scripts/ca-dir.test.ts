import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { hashedCaFiles, subjectHash } from './ca-dir.ts';

/** A root Node.js bundles (20 and 24 alike), found by the end of its subject. */
function root(subjectEnd: string): string {
  const found = rootCertificates.filter((pem) => new X509Certificate(pem).subject.replace(/\n/g, ', ').endsWith(subjectEnd));
  expect(found, `one bundled root whose subject ends "${subjectEnd}"`).toHaveLength(1);
  return found[0]!;
}

describe("OpenSSL's subject hash", () => {
  // the answers of `openssl x509 -noout -subject_hash` (OpenSSL 3.0) for roots whose names exercise the canonical form:
  // every bundled root of Node 20 and 24 and Debian's store was checked the same way when this was written
  it.each([
    ['PrintableStrings', 'O=Internet Security Research Group, CN=ISRG Root X1', '4042bcee'],
    ['upper case, a hyphen', 'O=TAIWAN-CA, OU=Root CA, CN=TWCA Root Certification Authority', 'b7a5b843'],
    ['spaces, repeated attribute values', 'L=Hong Kong, O=Hongkong Post, CN=Hongkong Post Root CA 3', '68dd7389'],
    ['UTF8Strings beyond ASCII', 'CN=NetLock Arany (Class Gold) Főtanúsítvány', '988a38cb'],
    ['an IA5String (emailAddress)', 'CN=Microsec e-Szigno Root CA 2009, emailAddress=info@e-szigno.hu', '8160b96c'],
  ])('%s', (_what, subject, hash) => {
    expect(subjectHash(root(subject))).toBe(hash);
  });

  it('refuses what is not a certificate', () => {
    expect(() => subjectHash('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow();
  });
});

describe('the hashed directory', () => {
  it('names each certificate <hash>.<n>, counting up for subjects that share a hash', () => {
    const isrg = root('CN=ISRG Root X1');
    const twca = root('CN=TWCA Root Certification Authority');
    const files = hashedCaFiles([isrg, twca, isrg]);
    expect([...files.keys()]).toEqual(['4042bcee.0', 'b7a5b843.0', '4042bcee.1']);
    expect(files.get('4042bcee.1')).toBe(isrg.endsWith('\n') ? isrg : `${isrg}\n`);
  });

  it('holds every root of the Node.js running this, each under a name of its own', () => {
    const files = hashedCaFiles(rootCertificates);
    expect(files.size).toBe(rootCertificates.length);
    for (const name of files.keys()) expect(name).toMatch(/^[0-9a-f]{8}\.\d$/);
  });
});
