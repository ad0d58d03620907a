import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderDex } from '@vend/protocol';
import { ACTION_HELP, parseAction } from './actions.ts';
import type { SimAction } from './actions.ts';
import type { VmcSimulator } from './simulator.ts';

export interface ControlServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;
const MAX_ACTIONS = 100;

export const CONTROL_HELP = [
  'vmc-sim control port (loopback only)',
  '  GET  /state       board, lanes, faults and counters (JSON)',
  '  GET  /motor-log   every motor run: time, seq, aisle, row, column, boot id (JSON)',
  "  GET  /dex         the board's audit as an EVA-DTS 6.1 DEX file (vends per lane since creation and since power-up)",
  '  POST /actions     one action object or an array of them (JSON), applied in order:',
  ...ACTION_HELP.map((l) => `      ${l}`),
].join('\n');

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body + '\n' : JSON.stringify(body, null, 2) + '\n';
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** The live control interface: a small HTTP server on 127.0.0.1 (never another interface). */
export async function startControlServer(sim: VmcSimulator, port: number): Promise<ControlServer> {
  const server = createServer((req, res) => {
    handle(sim, req, res).catch((e: unknown) => send(res, 500, { ok: false, error: String(e) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(sim: VmcSimulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/') return send(res, 200, CONTROL_HELP);
  if (req.method === 'GET' && path === '/state') return send(res, 200, sim.snapshot());
  if (req.method === 'GET' && path === '/motor-log') return send(res, 200, sim.motorLog);
  if (req.method === 'GET' && path === '/dex') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=latin1' });
    res.end(Buffer.from(renderDex(sim.board.dexAudit(sim.now())), 'latin1'));
    return;
  }
  if (path === '/actions') {
    if (req.method !== 'POST') return send(res, 405, { ok: false, error: 'POST an action' });
    let json: unknown;
    try {
      json = JSON.parse(await readBody(req));
    } catch (e) {
      return send(res, 400, { ok: false, error: `body must be JSON: ${(e as Error).message}` });
    }
    const list: unknown[] = Array.isArray(json) ? json : [json];
    if (list.length === 0 || list.length > MAX_ACTIONS) return send(res, 400, { ok: false, error: `send 1..${MAX_ACTIONS} actions` });
    const actions: SimAction[] = [];
    for (const [i, item] of list.entries()) {
      const r = parseAction(item);
      if (!r.ok) return send(res, 400, { ok: false, error: Array.isArray(json) ? `action ${i}: ${r.error}` : r.error, help: ACTION_HELP });
      actions.push(r.action);
    }
    const size = sim.board.lanesSnapshot().length;
    const outside = actions.find((a) => 'aisle' in a && a.aisle > size);
    if (outside) return send(res, 400, { ok: false, error: `aisle ${'aisle' in outside ? outside.aisle : ''} is outside this machine (1..${size})` });
    for (const a of actions) await sim.apply(a);
    return send(res, 200, { ok: true, applied: actions.length, state: sim.snapshot() });
  }
  return send(res, 404, { ok: false, error: `no such endpoint; GET / for help` });
}
