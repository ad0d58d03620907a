/**
 * A TCP proxy on 127.0.0.1 that a drill puts between the cloud and what it stands on, to make the network slow or
 * cut it (docs/decisions/outages.md):
 *
 *   delay(ms)  every chunk waits `ms` before it is passed on, in both directions (order kept)
 *   cut()      a black hole: connections stay open, nothing passes either way, new ones are accepted and get
 *              nothing (a pulled cable or a dead route: no RST, no FIN, as a firewall dropping packets does)
 *   reset()    every connection is destroyed (RST), new ones go on being served
 *   heal()     back to a plain proxy; connections left open through a cut stay dead (their bytes were dropped)
 */
import net from 'node:net';

export interface FaultProxy {
  /** The port clients connect to. */
  port: number;
  delay(ms: number): void;
  cut(): void;
  reset(): void;
  heal(): void;
  /** Connections open now. */
  readonly open: number;
  close(): Promise<void>;
}

type Mode = { kind: 'pass'; delayMs: number } | { kind: 'cut' };

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: Mode = { kind: 'pass', delayMs: 0 };
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; dead: boolean }>();

  /** Passes `from`'s bytes to `to` in the proxy's mode at the time each chunk arrives. */
  const pipe = (from: net.Socket, to: net.Socket, pair: { dead: boolean }) => {
    from.on('data', (chunk: Buffer) => {
      if (pair.dead) return;
      if (mode.kind === 'cut') {
        pair.dead = true; // a black hole loses this chunk: the stream behind it can never be whole again
        return;
      }
      if (mode.delayMs > 0) setTimeout(() => !pair.dead && !to.destroyed && to.write(chunk), mode.delayMs);
      else if (!to.destroyed) to.write(chunk);
    });
  };

  const server = net.createServer((client) => {
    const pair = { client, upstream: net.connect(target), dead: mode.kind === 'cut' };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      pair.upstream.destroy();
    };
    client.on('error', drop);
    pair.upstream.on('error', drop);
    client.on('close', drop);
    pair.upstream.on('close', drop);
    pipe(client, pair.upstream, pair);
    pipe(pair.upstream, client, pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    delay: (ms) => (mode = { kind: 'pass', delayMs: ms }),
    cut: () => {
      mode = { kind: 'cut' };
      for (const p of pairs) p.dead = true;
    },
    reset: () => {
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream.destroy();
      }
    },
    heal: () => (mode = { kind: 'pass', delayMs: 0 }),
    get open() {
      return pairs.size;
    },
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
