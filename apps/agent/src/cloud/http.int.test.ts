import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpTransportError, cloudTransport } from './http.ts';

// The per-call deadline (spec 2 §8: 8 s per call) against a real socket: a server that takes the
// connection and never answers, one that sends the headers and stalls the body, one that trickles
// the body a byte at a time so no single read ever times out. timeoutMs is 200 here.

const sockets: Socket[] = [];
const servers: Server[] = [];
const http = cloudTransport();
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  await http.close();
});

async function listen(onRequest: (s: Socket) => void): Promise<string> {
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    s.once('data', () => onRequest(s));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/cabinet/heartbeat`;
}

async function timed(url: string, timeoutMs = 200): Promise<{ error: unknown; ms: number }> {
  const start = Date.now();
  try {
    await http.transport({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs });
    return { error: null, ms: Date.now() - start };
  } catch (error) {
    return { error, ms: Date.now() - start };
  }
}

describe('the cloud transport gives up on time', () => {
  it('a server that accepts and never answers: a timeout error, within the deadline', async () => {
    const { error, ms } = await timed(await listen(() => {}));
    expect(error).toBeInstanceOf(HttpTransportError);
    expect(error).toMatchObject({ kind: 'timeout', notSent: false, message: 'no answer within 200 ms' });
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(2_000);
  });

  it('headers sent, then the body stalls: a timeout error', async () => {
    const { error, ms } = await timed(
      await listen((s) => s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":0,')),
    );
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(ms).toBeLessThan(2_000);
  });

  it('a body trickled a byte at a time never beats the deadline for the whole call', async () => {
    const url = await listen((s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n');
      const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write(' ')), 50);
    });
    const { error, ms } = await timed(url, 400);
    expect(error).toMatchObject({ kind: 'timeout', message: 'no answer within 400 ms' });
    expect(ms).toBeLessThan(2_000);
  });

  it('an answer in time is an answer', async () => {
    const body = '{"code":0,"data":{}}';
    const url = await listen((s) =>
      s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`),
    );
    const { error } = await timed(url);
    expect(error).toBeNull();
  });
});

describe('the cloud transport says what happened', () => {
  it('a refused connection never reached the server: notSent', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const { error } = await timed(`http://127.0.0.1:${port}/cabinet/heartbeat`, 2_000);
    expect(error).toMatchObject({ kind: 'network', notSent: true });
  });

  it('a body over 1 MiB is refused, not buffered', async () => {
    const url = await listen((s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2000000\r\n\r\n');
      s.write(Buffer.alloc(1_100_000, 0x20));
    });
    const { error } = await timed(url, 5_000);
    expect(error).toMatchObject({ kind: 'network', notSent: false, message: 'response body over 1048576 bytes' });
  });

  it("the caller's signal aborts a call in flight", async () => {
    const url = await listen(() => {});
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(http.transport({ method: 'GET', url, headers: {}, timeoutMs: 5_000, signal: ac.signal })).rejects.toMatchObject({ kind: 'aborted' });
  });
});
