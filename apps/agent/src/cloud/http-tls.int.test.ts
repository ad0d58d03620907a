import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedCaFiles } from '../../../../scripts/ca-dir.ts';
import { localCertificate } from '../../../../test/support/local-cert.ts';
import { cloudTransport } from './http.ts';

// The cloud transport over TLS against real listening servers, each with a self-signed certificate for 127.0.0.1
// made for the run (its own CA). The trust a cabinet is given comes from the environment at start, so the trusted
// cases run in a child process with that environment: NODE_EXTRA_CA_CERTS naming the cloud's CA, or the release
// tree's own store (its launcher: --use-openssl-ca with SSL_CERT_DIR, a hashed directory; docs/decisions/agent.md
// "Footprint"). Each answer closes its connection, so every call opens a new one.

const HTTP_TS = path.join(import.meta.dirname, 'http.ts');
const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tls-'));
const servers: https.Server[] = [];
let cloud = { url: '', ca: '' };
let stranger = { url: '', ca: '' };

async function serve(): Promise<{ url: string; ca: string }> {
  const pems = await localCertificate();
  const server = https.createServer({ cert: pems.cert, key: pems.key }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end('{"code":0}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const ca = path.join(dir, `ca-${servers.length}.pem`);
  fs.writeFileSync(ca, pems.cert);
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/cabinet/heartbeat`, ca };
}

beforeAll(async () => {
  cloud = await serve();
  stranger = await serve();
});
afterAll(() => {
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * GETs `urls` one after the other through one cloudTransport() in a fresh process with `env`: each answer's status
 * (or the transport error), and how many TLS contexts were built on the way.
 */
async function inChild(env: Record<string, string>, args: string[], urls: string[]): Promise<{ out: (number | string)[]; contexts: number }> {
  const script = `
    import tls from 'node:tls';
    const { cloudTransport } = await import(${JSON.stringify(HTTP_TS)});
    let contexts = 0;
    const create = tls.createSecureContext;
    tls.createSecureContext = (...a) => (contexts++, create(...a));
    const http = cloudTransport();
    const out = [];
    for (const url of ${JSON.stringify(urls)})
      out.push(await http.transport({ method: 'GET', url, headers: {}, timeoutMs: 10_000 }).then((r) => r.status, (e) => e.kind + ': ' + e.message));
    await http.close();
    console.log(JSON.stringify({ out, contexts }));`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NODE_EXTRA_CA_CERTS|NODE_OPTIONS|SSL_CERT_\w+)$/.test(k)));
  const { stdout } = await run(process.execPath, [...args, '--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...clean, ...env },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { out: (number | string)[]; contexts: number };
}

describe('the cloud transport over TLS', () => {
  it("refuses a server whose certificate it was not told to trust, and one whose name is not the URL's", async () => {
    const http = cloudTransport();
    try {
      const call = (url: string) => http.transport({ method: 'GET', url, headers: {}, timeoutMs: 10_000 });
      await expect(call(cloud.url)).rejects.toMatchObject({ kind: 'network', message: expect.stringMatching(/self-signed certificate/) });
      // the certificate names 127.0.0.1 only
      const byName = await inChild({ NODE_EXTRA_CA_CERTS: cloud.ca }, [], [cloud.url.replace('127.0.0.1', 'localhost')]);
      expect(byName.out).toEqual([expect.stringMatching(/^network: ERR_TLS_CERT_ALTNAME_INVALID/)]);
    } finally {
      await http.close();
    }
  });

  it('trusts the CA named by NODE_EXTRA_CA_CERTS, with one TLS context for all its connections, and still checks every server', async () => {
    const { out, contexts } = await inChild({ NODE_EXTRA_CA_CERTS: cloud.ca }, [], [cloud.url, cloud.url, cloud.url, stranger.url, cloud.url]);
    expect(out).toEqual([200, 200, 200, expect.stringMatching(/^network: .*self-signed certificate/), 200]);
    // five connections (each answer closed its own), one context: node:https alone builds one per connection
    expect(contexts).toBe(1);
  });

  it("the release tree's store: a CA in the hashed directory is trusted, one outside it is refused, NODE_EXTRA_CA_CERTS still adds one", async () => {
    const store = path.join(dir, 'certs');
    fs.mkdirSync(store);
    for (const [name, pem] of hashedCaFiles([fs.readFileSync(cloud.ca, 'utf8')])) fs.writeFileSync(path.join(store, name), pem);
    // as apps/agent/packaging/vend-agent.sh runs the tree: OpenSSL's store, the tree's directory, no CA file
    const tree = { SSL_CERT_DIR: store, SSL_CERT_FILE: '/dev/null' };
    const alone = await inChild(tree, ['--use-openssl-ca'], [cloud.url, stranger.url]);
    expect(alone.out).toEqual([200, expect.stringMatching(/^network: .*self-signed certificate/)]);
    // (both test CAs are named CN=127.0.0.1, so one process cannot be given both: the first found by name would answer)
    const extra = await inChild({ ...tree, NODE_EXTRA_CA_CERTS: stranger.ca }, ['--use-openssl-ca'], [stranger.url]);
    expect(extra.out).toEqual([200]);
  });
});
