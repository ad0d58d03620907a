import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, FEATURE_DEFAULTS } from '@vend/protocol';
import { EXIT_CODES, main } from '../../cli.ts';
import { DispenseBook } from '../../spool/book.ts';
import { JournalRecord } from '../../spool/journal.ts';
import { JsonlJournal } from '../../state/jsonl-journal.ts';
import { StateDir } from '../../state/state-dir.ts';

// The technician's commands against a state directory with no daemon running (the control port is
// one nobody listens on): what a technician sees when the agent is down.

const root = mkdtempSync(join(tmpdir(), 'agent-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const KEY = `dk_0123456789abcdef:${'S'.repeat(43)}`;

function cabinet() {
  const dir = join(root, `c${n++}`);
  const state = new StateDir(dir);
  state.ensure();
  const env = {
    VEND_AGENT_STATE_DIR: dir,
    VEND_AGENT_CONTROL_PORT: '1',
    VEND_AGENT_CONFIG: join(root, 'none.json'),
    VEND_AGENT_FLEET_SECRET: 'sbx-fleet-secret-4b2d',
  };
  writeFileSync(join(root, 'none.json'), '{}');
  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['node', 'vend-agent', ...args], { env, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) });
    return { code, out: out.join(''), err: err.join('') };
  };
  return { dir, state, cli };
}

describe('vend-agent with the daemon down', () => {
  it('status reads the state directory: enrolment, spool depth, dispenses to settle; exit 5 (8 when revoked)', async () => {
    const { state, cli } = cabinet();
    state.writeCredential(KEY);
    state.writeEnrolment({ state: 'enrolled', keyId: 'dk_0123456789abcdef', machineCode: 'SBX-ALICE-0001', message: null, at: 1 });
    const journal = new JsonlJournal(state.path('journal'), JournalRecord);
    const book = new DispenseBook(journal, { now: () => 1, setTimeout: () => 0, clearTimeout: () => {} });
    book.load();
    book.recordOutcome({
      id: 'drop:c1',
      kind: 'command',
      commandId: 'c1',
      aisle: 2,
      success: true,
      outcome: 'success',
      detail: 'ok',
      motorRan: 'yes',
      via: 'dispense',
    });
    book.recordIntent({ id: 'drop:c2', kind: 'command', commandId: 'c2', aisle: 3, seq: 4, bootId: 5, boardLastSeq: 3 });
    journal.close();
    const s = await cli('status');
    expect(s.code).toBe(EXIT_CODES.daemonDown);
    expect(s.out).toMatch(/daemon is not running/);
    expect(s.out).toMatch(/enrolled \(key dk_0123456789abcdef\)/);
    expect(s.out).toMatch(/1 report\(s\) waiting, 1 dispense\(s\) to settle/);
    const j = await cli('status', '--json');
    expect(JSON.parse(j.out)).toMatchObject({ daemon: 'not running', spool: { depth: 1, unresolvedIntents: 1 } });
    state.writeEnrolment({ state: 'revoked', keyId: 'dk_0123456789abcdef', machineCode: null, message: 'Credential revoked', at: 2 });
    expect((await cli('status')).code).toBe(EXIT_CODES.revoked);
  });

  it('credential show masks the secret and shows the file mode; exit 7 with none, 8 revoked', async () => {
    const { state, cli } = cabinet();
    expect((await cli('credential', 'show')).code).toBe(EXIT_CODES.notEnrolled);
    state.writeCredential(KEY);
    const r = await cli('credential', 'show');
    expect(r.code).toBe(EXIT_CODES.ok);
    expect(r.out).toContain('dk_0123456789abcdef');
    expect(r.out).not.toContain('S'.repeat(10));
    expect(r.out).toMatch(/mode 0600/);
    const j = JSON.parse((await cli('credential', 'show', '--json')).out) as { secret: string };
    expect(j.secret).toBe('SSSS… (43 chars)');
  });

  it('config show: the effective settings with the fleet secret and the kiosk PIN masked', async () => {
    const { state, cli } = cabinet();
    state.writeCachedConfig({
      receivedAt: 5,
      config: {
        ...CONFIG_DEFAULTS,
        features: { ...FEATURE_DEFAULTS },
        machineCode: 'SBX-ALICE-0001',
        kioskUiUrl: '',
        adminPin: '482913',
        adminPinSource: 'operator',
      },
    });
    const r = await cli('config', 'show');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('sbx-fleet-secret-4b2d');
    expect(r.out).not.toContain('482913');
    expect(r.out).toMatch(/pollInterval\s+3/);
    const j = JSON.parse((await cli('config', 'show', '--json')).out) as {
      agent: { controlPort: number; fleetSecret: string };
      cloudConfig: { adminPin: string };
    };
    expect(j.agent.controlPort).toBe(1);
    expect(j.agent.fleetSecret).toBe('sbx-… (21 chars)');
    expect(j.cloudConfig.adminPin).toBe('****** (6 chars)');
  });

  it('logs prints the last lines readably (or as written with --json); exit 5 without a log', async () => {
    const { state, cli } = cabinet();
    expect((await cli('logs')).code).toBe(EXIT_CODES.daemonDown);
    const lines = [1, 2, 3].map((i) =>
      JSON.stringify({ level: 30, time: `2026-11-22T12:00:0${i}.000Z`, pid: 9, part: 'spool', dispenseId: `drop:c${i}`, msg: 'report delivered' }),
    );
    writeFileSync(state.path('log'), lines.join('\n') + '\n');
    const r = await cli('logs', '-n', '2');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual([
      '2026-11-22T12:00:02.000Z INFO  [spool] report delivered {"dispenseId":"drop:c2"}',
      '2026-11-22T12:00:03.000Z INFO  [spool] report delivered {"dispenseId":"drop:c3"}',
    ]);
    expect((await cli('logs', '-n', '1', '--json')).out.trim()).toBe(lines[2]);
  });

  it('dispense and enrol need the daemon or the cloud: exit 5 for a dispense; enrol tries the cloud itself', async () => {
    const { cli } = cabinet();
    const d = await cli('dispense', '--aisle', '3');
    expect(d.code).toBe(EXIT_CODES.daemonDown);
    expect(d.err).toMatch(/control channel .* does not answer/);
    const e = await cli('enrol', '--cloud-url', 'http://127.0.0.1:1', '--equipment-no', 'SBX-ALICE-0001');
    expect(e.code).toBe(EXIT_CODES.notEnrolled);
    expect(e.out).toMatch(/enrolment: failing/);
  });

  it('bad configuration exits 78 naming the problem; a non-loopback control address is one', async () => {
    const { cli } = cabinet();
    const r = await cli('--control-host', '0.0.0.0', 'status');
    expect(r.code).toBe(EXIT_CODES.usage); // commander refuses the choice before the configuration is read
    const { dir } = cabinet();
    const out: string[] = [];
    const code = await main(['node', 'vend-agent', 'status'], {
      env: { VEND_AGENT_STATE_DIR: dir, VEND_AGENT_CONTROL_HOST: '0.0.0.0' },
      stdout: () => {},
      stderr: (t) => void out.push(t),
    });
    expect(code).toBe(EXIT_CODES.config);
    expect(out.join('')).toMatch(/VEND_AGENT_CONTROL_HOST: the control channel binds to loopback only/);
  });
});
