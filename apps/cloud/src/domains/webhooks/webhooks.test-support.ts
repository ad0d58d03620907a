import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  json: { id: string; type: string; createdAt: string; machineNo: string | null; data: Record<string, unknown> };
}

/** What the receiver does with the next request: answer this status, or never answer. */
export type Reply = number | 'hang';

export interface Receiver {
  url: string;
  got: Received[];
  /** Replies for the coming requests, in order; 200 once it runs out. */
  plan: Reply[];
  close(): Promise<void>;
}

/** A real HTTP endpoint on 127.0.0.1 that records every delivery it receives. */
export async function startReceiver(): Promise<Receiver> {
  const got: Received[] = [];
  const plan: Reply[] = [];
  const hanging: ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      got.push({ headers: req.headers, body, json: JSON.parse(body) as Received['json'] });
      const reply = plan.shift() ?? 200;
      if (reply === 'hang') {
        hanging.push(res);
        return;
      }
      res.statusCode = reply;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    plan,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
