import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { localCertificate } from './local-cert.ts';

/**
 * TLS in front of a plain-HTTP server on 127.0.0.1, as a cabinet meets the cloud behind its load
 * balancer: a listening socket terminating TLS with a self-signed certificate made for the run (EC
 * P-256, valid one day) and piping the bytes to `target`. The agent trusts it the way a cabinet trusts
 * a private CA: `NODE_EXTRA_CA_CERTS` naming `caFile` (Node reads it at start; the launcher keeps it).
 */
export async function startTlsTerminator(o: { target: number; dir: string }): Promise<{ url: string; caFile: string; close(): Promise<void> }> {
  const pems = await localCertificate();
  const caFile = path.join(o.dir, 'cloud-ca.pem');
  fs.writeFileSync(caFile, pems.cert);
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: pems.key, cert: pems.cert }, (front) => {
    const back = net.connect(o.target, '127.0.0.1');
    for (const s of [front, back]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === front ? back : front).destroy());
    }
    front.pipe(back).pipe(front);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caFile,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
