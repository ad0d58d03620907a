/**
 * The demo behind `bash scripts/start`: the cloud sandbox plus two simulated cabinets — each a
 * `vmc-sim` board on a socat pseudo-terminal pair and a `vend-agent run` enrolled to the cloud with
 * the sandbox fleet secret — then prints the credentials and curls that trigger a drop.
 *
 *   cloud          http://127.0.0.1:$PORT (default 8080), SQLite in $DATA_DIR (default ./data)
 *   SBX-ALICE-0001 board $DATA_DIR/cabinets/SBX-ALICE-0001/ttyVMC0 (control 127.0.0.1:8781), agent control 127.0.0.1:8770
 *   SBX-ALICE-0002 board $DATA_DIR/cabinets/SBX-ALICE-0002/ttyVMC0 (control 127.0.0.1:8782), agent control 127.0.0.1:8771
 *
 * The second agent's control channel is on 8771 because both cabinets run on one host (a real
 * cabinet has its own loopback and always uses 8770); the boards' control ports are moved to
 * 8781/8782 for the same reason (vmc-sim's default is 8771). Each agent's state directory, log and
 * stdout live under $DATA_DIR/cabinets/<serial>/. Ctrl-C or SIGTERM stops every child.
 *
 * `DEMO_PORTS=auto` (tests) lets every port but the cloud's PORT be picked by the OS.
 * Without socat (no pseudo-terminals) only the cloud runs, with a note saying so.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { SCREEN_DIST } from '@vend/kiosk-screen';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA_DIR = resolve(process.env['DATA_DIR'] ?? './data');
const PORT = process.env['PORT'] ?? '8080';
const AUTO = process.env['DEMO_PORTS'] === 'auto';
const FLEET_SECRET = 'sbx-fleet-secret-4b2d';
const ADMIN = 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d';
const ALICE = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';
const CABINETS = [
  { machineNo: 'SBX-ALICE-0001', agentPort: 8770, boardControlPort: 8781 },
  { machineNo: 'SBX-ALICE-0002', agentPort: 8771, boardControlPort: 8782 },
];

const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;

function say(line: string): void {
  process.stdout.write(`demo: ${line}\n`);
}

function launch(name: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push({ name, child });
  child.on('exit', (code, signal) => {
    if (!stopping) say(`${name} exited (${code ?? signal}); stopping everything`);
    if (!stopping) void stopAll(1);
  });
  return child;
}

/** Collects a child's stdout and resolves with the first match of `pick` (bounded). */
function waitForLine<T>(child: ChildProcess, pick: (text: string) => T | undefined, timeoutMs: number, what: string, forward = false): Promise<T> {
  return new Promise((resolvePick, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${what} not ready after ${timeoutMs / 1000} s`)), timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      if (forward) process.stdout.write(d);
      text += d.toString();
      const v = pick(text);
      if (v !== undefined) {
        clearTimeout(timer);
        resolvePick(v);
      }
    });
    child.on('exit', () => reject(new Error(`${what} exited before it was ready`)));
  });
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: { message: text } };
  }
}

function socatAvailable(): boolean {
  return (process.env['PATH'] ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'socat')));
}

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // agents first (a dispense on the wire is finished), then the boards, then the cloud
  const order = [...children].sort((a, b) => rank(a.name) - rank(b.name));
  for (const { name, child } of order) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const done = new Promise((r) => child.once('exit', r));
    const t = setTimeout(() => child.kill('SIGKILL'), 45_000);
    await done;
    clearTimeout(t);
    say(`${name} stopped`);
  }
  process.exit(code);
}
function rank(name: string): number {
  return name.startsWith('agent') ? 0 : name.startsWith('board') ? 1 : 2;
}

/**
 * Sandbox affordance for re-runs: a cabinet whose seed arm has expired (428) is armed again, and one
 * whose agent state was deleted while the cloud kept its enrolment (409) has its identity reset and
 * armed — both with the sandbox admin key, both documented in docs/agent.md.
 */
async function heal(cloud: string, machineNo: string, state: string): Promise<boolean> {
  const headers = { 'x-api-key': ADMIN, 'content-type': 'application/json' };
  if (state === 'waiting-for-arm') {
    const r = await json(`${cloud}/api/v1/machines/${machineNo}/device-credential/arm`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reason: 'demo: re-arm a sandbox cabinet' }),
    });
    say(`${machineNo}: no enrolment arm (428): armed it again with the sandbox admin key (${r.status})`);
    return r.status === 200;
  }
  if (state === 'conflict') {
    const r = await json(`${cloud}/api/v1/machines/${machineNo}/identity/reset`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ signer: 'demo', reason: 'demo: the agent state directory was deleted', arm: {} }),
    });
    say(`${machineNo}: enrolled in the cloud but this agent has no credential (409): reset its identity and armed it (${r.status})`);
    return r.status === 200;
  }
  return false;
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  mkdirSync(DATA_DIR, { recursive: true });

  const cloud = launch('cloud', ['--import', 'tsx', 'apps/cloud/src/main.ts'], { DATA_DIR, PORT, LOG_PRETTY: process.env['LOG_PRETTY'] ?? 'true' });
  cloud.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  const cloudUrl = await waitForLine(cloud, (t) => /listening on (http:\/\/[^\s]+)/.exec(t)?.[1], 120_000, 'the cloud', true);
  await sleep(200); // let the cloud finish printing its credentials
  if (!socatAvailable()) {
    say('socat is not installed, so no simulated cabinets (they need pseudo-terminals): sudo apt-get install socat');
    say(`the cloud runs at ${cloudUrl}; Ctrl-C stops it`);
    return;
  }

  const cabinets: { machineNo: string; control: string; boardControl: string; token: string; stateDir: string }[] = [];
  for (const c of CABINETS) {
    // the kiosk's storefront is a per-machine feature (spec 2 §2.4, default off): on for the demo's cabinets
    const settings = await fetch(`${cloudUrl}/api/v1/machines/${c.machineNo}/cabinet-settings`, {
      method: 'PUT',
      headers: { 'x-api-key': ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ features: { htmlStorefront: true } }),
    });
    if (!settings.ok) say(`${c.machineNo}: could not turn the storefront on (${settings.status})`);
    const dir = join(DATA_DIR, 'cabinets', c.machineNo);
    mkdirSync(dir, { recursive: true });
    const board = launch(`board ${c.machineNo}`, [
      'firmware-sim/bin/vmc-sim.js',
      '--json',
      '--link',
      join(dir, 'ttyVMC0'),
      '--control-port',
      AUTO ? '0' : String(c.boardControlPort),
      '--module',
      'SH_YAxis',
    ]);
    const boardLog = openSync(join(dir, 'board.log'), 'a');
    board.stderr?.on('data', (d: Buffer) => writeSync(boardLog, d));
    const ready = await waitForLine(
      board,
      (t) => (t.includes('"event":"ready"') ? (JSON.parse(t.split('\n').find((l) => l.includes('"ready"'))!) as { port: string; control: string }) : undefined),
      30_000,
      `board ${c.machineNo}`,
    );
    const stateDir = join(dir, 'agent');
    const agent = launch(
      `agent ${c.machineNo}`,
      [
        'apps/agent/bin/vend-agent.js',
        '--state-dir',
        stateDir,
        '--control-port',
        AUTO ? '0' : String(c.agentPort),
        'run',
        '--cloud-url',
        cloudUrl,
        '--equipment-no',
        c.machineNo,
        '--serial-port',
        ready.port,
        '--machine-id-file',
        '',
      ],
      // the kiosk's screen, as scripts/setup built it (a release tree carries its own in screen/)
      { VEND_AGENT_FLEET_SECRET: FLEET_SECRET, VEND_AGENT_SCREEN_DIR: SCREEN_DIST },
    );
    // the agent's JSON log lines go to its file; the terminal keeps the cloud's pretty log
    const sink = openSync(join(dir, 'agent.stdout.log'), 'a');
    agent.stdout?.on('data', (d: Buffer) => writeSync(sink, d));
    agent.stderr?.on('data', (d: Buffer) => writeSync(sink, d));
    const control = await waitForLine(
      agent,
      (t) => {
        const line = t.split('\n').find((l) => l.includes('"event":"ready"'));
        return line ? (JSON.parse(line) as { control: string }).control : undefined;
      },
      60_000,
      `agent ${c.machineNo}`,
    );
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    cabinets.push({ machineNo: c.machineNo, control, boardControl: ready.control, token, stateDir });
  }

  // enrolled? (bounded; heals the two sandbox cases once)
  for (const c of cabinets) {
    const auth = { authorization: `Bearer ${c.token}` };
    let healed = false;
    let state = 'unknown';
    for (let i = 0; i < 120; i++) {
      const s = await json(`${c.control}/v1/status`, { headers: auth });
      const enrolment = (s.body['enrolment'] ?? {}) as { state?: string };
      const cloudPart = (s.body['cloud'] ?? {}) as { registeredAt?: string | null };
      state = enrolment.state ?? 'unknown';
      if (state === 'enrolled' && cloudPart.registeredAt) break;
      if (!healed && (state === 'waiting-for-arm' || state === 'conflict')) {
        healed = await heal(cloudUrl, c.machineNo, state);
        await json(`${c.control}/v1/enrol`, { method: 'POST', headers: auth });
      }
      await sleep(250);
    }
    say(`${c.machineNo}: ${state}`);
  }

  const [a, b] = cabinets as [(typeof cabinets)[number], (typeof cabinets)[number]];
  const lines = [
    '',
    '================================================================================',
    ` cloud sandbox  ${cloudUrl}   (credentials above; docs/sandbox.md)`,
    ` operator console  ${cloudUrl}/console/   (sign in as alice: credentials above; docs/console.md)`,
    ...cabinets.map(
      (c) =>
        ` cabinet ${c.machineNo}: screen ${c.control}/screen/  agent control ${c.control}  board control ${c.boardControl}\n` +
        `   control token (${join(c.stateDir, 'control-token')}): ${c.token}\n` +
        `   vend-agent --state-dir ${c.stateDir} --control-port ${new URL(c.control).port} status`,
    ),
    '',
    ` Buy from a kiosk's screen: open ${a.control}/screen/ in a browser, touch it, choose a product, open the`,
    ' address its QR holds in a second tab (your phone) and pay with the test processor; the screen follows the',
    ` drop, and the board's motor runs:  curl -s ${a.boardControl}/motor-log`,
    ' Trigger a remote drop (operator alice, aisle 3 of the first cabinet):',
    `   curl -s -H 'X-API-Key: ${ALICE}' -H 'content-type: application/json' \\`,
    `        -d '{"aisleNo":3,"reason":"demo"}' ${cloudUrl}/api/v1/machines/${a.machineNo}/commands/dispense`,
    ' then watch the board run its motor and the command become acknowledged:',
    `   curl -s ${a.boardControl}/motor-log`,
    `   curl -s -H 'X-API-Key: ${ALICE}' '${cloudUrl}/api/v1/machines/${a.machineNo}/commands?size=1'`,
    ' A walk-up sale on the second cabinet, through its control channel:',
    `   curl -s -H 'Authorization: Bearer ${b.token}' -H 'content-type: application/json' -d '{"aisle":2,"payMethod":"cash"}' ${b.control}/v1/dispense`,
    " The first kiosk's attract loop, as its screen gets it from the agent (no token: loopback only), and the ad reports:",
    `   curl -s ${a.control}/v1/ads/loop`,
    `   curl -s -H 'X-API-Key: ${ALICE}' ${cloudUrl}/api/v1/campaigns/reports/summary`,
    ' The done-for-you autopilot driving deal_sbx_0022 to the lease checkpoint (the loop ticks every minute; docs/sandbox.md):',
    `   curl -s -H 'X-API-Key: ${ALICE}' -X POST ${cloudUrl}/api/v1/dfy/autopilot/tick`,
    `   curl -s -H 'X-API-Key: ${ALICE}' -H 'content-type: application/json' -d '{"confirm":true}' ${cloudUrl}/api/v1/dfy/deals/deal_sbx_0022/negotiation/start`,
    `   curl -s -H 'X-API-Key: ${ALICE}' '${cloudUrl}/api/v1/dfy/checkpoints?dealId=deal_sbx_0022&resolved=false'`,
    '',
    ' Ctrl-C stops the agents, the boards and the cloud.',
    '================================================================================',
    '',
  ];
  process.stdout.write(lines.join('\n'));
  process.stdout.write(
    JSON.stringify({
      event: 'demo-ready',
      cloud: cloudUrl,
      cabinets: cabinets.map((c) => ({ machineNo: c.machineNo, control: c.control, screen: `${c.control}/screen/`, boardControl: c.boardControl })),
    }) + '\n',
  );
}

main().catch((e: unknown) => {
  say(`failed: ${(e as Error).message}`);
  void stopAll(1);
});
