import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localCertificate } from './local-cert.ts';
import { Agent } from 'undici';

/**
 * A real HTTPS artifact server for the upgrade tests, on 127.0.0.1 with a self-signed certificate
 * made for the run (EC P-256, valid one day). The agent's downloader trusts it only through an undici
 * dispatcher carrying this CA — exactly how a cabinet would pin a private artifact host.
 */
export interface ArtifactServer {
  /** `https://127.0.0.1:<port>/agent/` — a canonical trusted prefix. */
  prefix: string;
  /** The certificate (PEM), to trust as a CA. */
  ca: string;
  /** Every request path, in order. */
  requests: string[];
  /** Bytes written to clients so far. */
  sent: number;
  /** Serves `bytes` at `<prefix><name>`. */
  put(name: string, bytes: Buffer): string;
  /** How the next responses behave. */
  mode: 'normal' | 'endless' | 'overlong-header' | 'stall-half' | 'trickle' | 'redirect';
  dispatcher(): Agent;
  close(): Promise<void>;
}

/** `dir`: also serve `<dir>/<name>` at `<prefix><name>` (where `vendctl publish --upload-to` copies artifacts). */
export async function startArtifactServer(o: { dir?: string } = {}): Promise<ArtifactServer> {
  const pems = await localCertificate();
  const files = new Map<string, Buffer>();
  const timers = new Set<NodeJS.Timeout>();
  const agents: Agent[] = [];
  const state: ArtifactServer = {
    prefix: '',
    ca: pems.cert,
    requests: [],
    sent: 0,
    mode: 'normal',
    put(name, bytes) {
      files.set(`/agent/${name}`, bytes);
      return `${state.prefix}${name}`;
    },
    dispatcher() {
      const a = new Agent({ connect: { ca: pems.cert } });
      agents.push(a);
      return a;
    },
    async close() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await Promise.all(agents.map((a) => a.close().catch(() => {})));
    },
  };
  const write = (res: ServerResponse, chunk: Buffer): boolean => {
    state.sent += chunk.length;
    return res.write(chunk);
  };
  const server = https.createServer({ key: pems.key, cert: pems.cert }, (req, res) => {
    state.requests.push(req.url ?? '');
    const name = (req.url ?? '').replace(/^\/agent\//, '');
    const fromDir = o.dir && /^[A-Za-z0-9._-]+$/.test(name) && fs.existsSync(path.join(o.dir, name)) ? fs.readFileSync(path.join(o.dir, name)) : undefined;
    const data = files.get(req.url ?? '') ?? fromDir;
    if (!data) {
      res.writeHead(404).end();
      return;
    }
    switch (state.mode) {
      case 'normal':
        res.writeHead(200, { 'content-length': data.length, 'content-type': 'application/gzip' });
        state.sent += data.length;
        res.end(data);
        return;
      case 'redirect':
        res.writeHead(302, { location: 'https://127.0.0.1:1/elsewhere.tar.gz' }).end();
        return;
      case 'overlong-header':
        res.writeHead(200, { 'content-length': data.length * 4 });
        write(res, data);
        write(res, Buffer.alloc(data.length * 3, 0x41));
        res.end();
        return;
      case 'endless': {
        // no length, and bytes for as long as the client reads (bounded at 64 MiB so a bug cannot run away)
        res.writeHead(200);
        write(res, data);
        let extra = 0;
        const more = (): void => {
          while (extra < 64 * 1024 * 1024 && !res.destroyed) {
            extra += 16_384;
            if (!write(res, Buffer.alloc(16_384, 0x41))) return void res.once('drain', more);
          }
          res.end();
        };
        more();
        return;
      }
      case 'stall-half':
        res.writeHead(200, { 'content-length': data.length });
        write(res, data.subarray(0, Math.floor(data.length / 2)));
        return; // and never more (closed when the client gives up or the server closes)
      case 'trickle': {
        res.writeHead(200, { 'content-length': data.length });
        let off = 0;
        const t = setInterval(() => {
          if (res.destroyed || off >= data.length) {
            clearInterval(t);
            timers.delete(t);
            if (!res.destroyed) res.end();
            return;
          }
          write(res, data.subarray(off, off + 64));
          off += 64;
        }, 20);
        timers.add(t);
        return;
      }
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.prefix = `https://127.0.0.1:${(server.address() as AddressInfo).port}/agent/`;
  return state;
}
