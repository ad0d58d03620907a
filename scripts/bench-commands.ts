/**
 * Remote dispense benchmark (issue 3): the device agent's pending poll, the enqueue and the ack path
 * of the cloud (SQLite, seeded sandbox, its own process on a random port), each against a bare
 * node:http server (also its own process) answering the same bytes, measured in the same run.
 *
 *   npx tsx scripts/bench-commands.ts        (about 40 s)
 *
 * The enqueue run makes as many commands as it can in its time; the ack run then acknowledges every
 * one of them exactly once (each ack decrements stock and writes an order and an audit record).
 *
 * Prints requests/s, p50/p99 latency and the cloud/baseline ratio. Record results in docs/benchmarks.md.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { fetchBytes, measure as measureWith, startProcess, stop, type Row } from './bench-support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALICE_KEY = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2'; // the public sandbox key (docs/sandbox.md)
const POLL_MACHINE = 'SBX-ALICE-0003';
const ACK_MACHINE = 'SBX-ALICE-0001';
const CONNECTIONS = 10;
/** Seconds each timed run lasts (the ack run instead acknowledges every command the enqueue run made). */
const SECONDS = 5;
const headers = { 'x-api-key': ALICE_KEY, 'content-type': 'application/json' };

/** A bare node:http server in its own process answering every request with one fixed body. */
function startBaseline(body: Buffer): Promise<{ child: ChildProcess; url: string }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-')), 'body.json');
  fs.writeFileSync(file, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
    });
    server.keepAliveTimeout = 65000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  return startProcess(process.execPath, ['-e', script], {}, /listening on (http:\/\/\S+)/);
}

/** An aisle the sandbox seed left stocked and working (the seed's stock is random). */
async function workingAisle(base: string, machineNo: string): Promise<number> {
  for (let aisle = 1; aisle <= 10; aisle++) {
    const res = await fetch(`${base}/api/v1/machines/${machineNo}/commands/dispense`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ aisleNo: aisle, reason: 'bench probe', externalRef: `probe-${aisle}` }),
    });
    await res.arrayBuffer();
    if (res.status === 200) return aisle;
  }
  throw new Error(`no working aisle on ${machineNo}`);
}

const measure = (name: string, opts: autocannon.Options): Promise<Row> => measureWith(name, CONNECTIONS, opts);

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-cloud-'));
  const cloud = await startProcess(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'apps/cloud/src/main.ts')],
    { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', RATE_LIMIT_PER_HOUR: '100000000', POD_NAME: 'bench' },
    /listening on (http:\/\/\S+)/,
  );
  const base = cloud.url;
  const rows: [Row, Row][] = [];
  const children: ChildProcess[] = [cloud.child];
  try {
    // --- pending poll: five pending commands on the machine, as the agent sees them every 3 s
    const pollAisle = await workingAisle(base, POLL_MACHINE);
    for (let i = 0; i < 4; i++) {
      await fetchBytes(`${base}/api/v1/machines/${POLL_MACHINE}/commands/dispense`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ aisleNo: pollAisle, reason: `bench poll ${i}` }),
      });
    }
    const pollPath = `/api/v1/machines/${POLL_MACHINE}/commands/pending`;
    const pollBytes = await fetchBytes(base + pollPath, { headers });
    const pollBase = await startBaseline(pollBytes);
    children.push(pollBase.child);
    rows.push([
      await measure('pending poll (5 commands)', { url: base + pollPath, headers, duration: SECONDS }),
      await measure('baseline', { url: pollBase.url + pollPath, duration: SECONDS }),
    ]);

    // --- enqueue: new commands (no externalRef) for SECONDS; they become the ack set below
    const ackAisle = await workingAisle(base, ACK_MACHINE);
    const enqueueBody = JSON.stringify({ aisleNo: ackAisle, reason: 'bench drop' });
    const enqueuePath = `/api/v1/machines/${ACK_MACHINE}/commands/dispense`;
    const enqueueBytes = await fetchBytes(base + enqueuePath, { method: 'POST', headers, body: enqueueBody });
    const enqueueBase = await startBaseline(enqueueBytes);
    children.push(enqueueBase.child);
    rows.push([
      await measure('enqueue (dispense)', { url: base + enqueuePath, method: 'POST', headers, body: enqueueBody, duration: SECONDS }),
      await measure('baseline', { url: enqueueBase.url + enqueuePath, method: 'POST', headers, body: enqueueBody, duration: SECONDS }),
    ]);

    // --- ack: every pending command of the machine acknowledged once (stock, order, audit in one transaction)
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const listed = JSON.parse(
        (
          await fetchBytes(`${base}/api/v1/machines/${ACK_MACHINE}/commands?status=pending&size=100&page=${page}`, {
            headers,
          })
        ).toString(),
      ) as { data: { records: { commandId: string }[] } };
      ids.push(...listed.data.records.map((r) => r.commandId));
      if (listed.data.records.length < 100) break;
    }
    const ackBody = JSON.stringify({ success: true, outcome: 'success', detail: 'bench' });
    const first = ids.pop()!;
    const ackBytes = await fetchBytes(`${base}/api/v1/machines/${ACK_MACHINE}/commands/${first}/ack`, { method: 'POST', headers, body: ackBody });
    const ackBase = await startBaseline(ackBytes);
    children.push(ackBase.child);
    const queue = [...ids];
    const ackRow = await measure(`ack (${queue.length} commands)`, {
      url: base,
      amount: queue.length,
      requests: [
        {
          method: 'POST',
          headers,
          body: ackBody,
          setupRequest: (req) => ({ ...req, path: `/api/v1/machines/${ACK_MACHINE}/commands/${queue.pop() ?? first}/ack` }),
        },
      ],
    });
    rows.push([
      ackRow,
      await measure('baseline', {
        url: `${ackBase.url}/api/v1/machines/${ACK_MACHINE}/commands/x/ack`,
        method: 'POST',
        headers,
        body: ackBody,
        duration: SECONDS,
      }),
    ]);
    // every ack answered as a first ack: none was a repeat and every command is now acknowledged
    const left = JSON.parse((await fetchBytes(`${base}/api/v1/machines/${ACK_MACHINE}/commands?status=pending&size=1`, { headers })).toString()) as {
      data: { total: number };
    };
    if (left.data.total !== 0) throw new Error(`${left.data.total} commands still pending after the ack run`);
  } finally {
    for (const c of children) await stop(c);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const f = (n: number) => n.toFixed(0).padStart(8);
  const ms = (n: number) => `${n.toFixed(1).padStart(6)} ms`;
  console.log(
    `host ${os.hostname()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, ${new Date().toISOString()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`${CONNECTIONS} connections; cloud on SQLite (seeded sandbox) vs a bare node:http server answering the same bytes`);
  console.log('');
  console.log('| path | cloud req/s | p50 | p99 | baseline req/s | p50 | p99 | ratio | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [c, b] of rows) {
    console.log(
      `| ${c.name} | ${f(c.rps)} | ${ms(c.p50)} | ${ms(c.p99)} | ${f(b.rps)} | ${ms(b.p50)} | ${ms(b.p99)} | ${(c.rps / b.rps).toFixed(3)} | ${c.errors + b.errors} |`,
    );
  }
  console.log('');
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (rows.some(([c, b]) => c.errors + b.errors > 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
