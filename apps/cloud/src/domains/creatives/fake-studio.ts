import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one brief. */
export type FakeStudioReply =
  /** 200 with these bytes (default: the fake's image), the content type and the X-Studio-Ref (null: none). */
  | { kind: 'image'; bytes?: Buffer; contentType?: string; ref?: string | null }
  /** A failure with this status and body, as the studio would send it. */
  | { kind: 'status'; status: number; body: string; contentType?: string }
  /** Never answers (the socket stays open until the client gives up or the fake closes). */
  | { kind: 'hang' }
  /** Sends headers, then part of the body, then stalls. */
  | { kind: 'stall'; bytes: Buffer };

export interface SeenStudioRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  accept: string | undefined;
  body: unknown;
}

export interface FakeStudio {
  url: string;
  requests: SeenStudioRequest[];
  /** The answer to every request from now on. */
  reply(r: FakeStudioReply): void;
  close(): Promise<void>;
}

/**
 * A local stand-in for the creative studio, speaking the wire contract of studio.ts on 127.0.0.1:
 * it records each request and answers what the test set (by default: `image`, the bytes given at start).
 */
export async function startFakeStudio(image: Buffer): Promise<FakeStudio> {
  const requests: SeenStudioRequest[] = [];
  let next: FakeStudioReply = { kind: 'image' };
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], accept: req.headers['accept'], body });
      const r = next;
      switch (r.kind) {
        case 'hang':
          return;
        case 'stall':
          res.writeHead(200, { 'content-type': 'image/png', 'x-studio-ref': 'gen-stalled', 'content-length': String(r.bytes.length + 1000) });
          res.write(r.bytes);
          return;
        case 'status':
          res.writeHead(r.status, { 'content-type': r.contentType ?? 'text/plain; charset=utf-8' }).end(r.body);
          return;
        case 'image': {
          const headers: Record<string, string> = { 'content-type': r.contentType ?? 'image/png' };
          const ref = r.ref === undefined ? `gen-${++counter}` : r.ref;
          if (ref !== null) headers['x-studio-ref'] = ref;
          res.writeHead(200, headers).end(r.bytes ?? image);
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/generate`,
    requests,
    reply: (r) => {
      next = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
