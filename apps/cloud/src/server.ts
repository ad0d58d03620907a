import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './context.ts';
import type { Services } from './services.ts';
import { createApp } from './app.ts';

export interface RunningServer {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

export async function listen(ctx: AppContext, services: Services, port: number, host: string): Promise<RunningServer> {
  // the cross-replica pushes listen before the first cabinet can be held or verified here
  await services.runtime.connect();
  const server = http.createServer(createApp(ctx, services).listener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${addr.port}`,
    port: addr.port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
