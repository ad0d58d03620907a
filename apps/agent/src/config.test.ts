import { describe, expect, it } from 'vitest';
import { AgentConfigError, describeConfig, loadAgentConfig } from './config.ts';

const files = (map: Record<string, string>) => (path: string) => map[path] ?? null;

describe('agent configuration', () => {
  it('defaults: /var/lib/vend-agent, loopback 127.0.0.1:8770, 8 s calls, 60 s downloads, 10 × 2 s board opens', () => {
    const c = loadAgentConfig({ readFile: files({}), packagedVersion: '1.2.3' });
    expect(c).toMatchObject({
      stateDir: '/var/lib/vend-agent',
      controlHost: '127.0.0.1',
      controlPort: 8770,
      httpTimeoutMs: 8000,
      downloadTimeoutMs: 60_000,
      vmcOpenAttempts: 10,
      vmcOpenBackoffMs: 2000,
      machineIdFile: '/etc/machine-id',
      agentVersion: '1.2.3',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('flags over environment over the file over defaults', () => {
    const c = loadAgentConfig({
      readFile: files({
        '/etc/vend-agent/config.json': JSON.stringify({ stateDir: '/from/file', serialPort: '/dev/ttyS9', controlPort: 9001, equipmentNo: 'SBX-FILE-0001' }),
      }),
      env: { VEND_AGENT_STATE_DIR: '/from/env', VEND_AGENT_CONTROL_PORT: '9002' },
      flags: { stateDir: '/from/flag' },
    });
    expect(c.stateDir).toBe('/from/flag');
    expect(c.controlPort).toBe(9002);
    expect(c.serialPort).toBe('/dev/ttyS9');
    expect(c.equipmentNo).toBe('SBX-FILE-0001');
  });

  it('prize game: 50 000 events kept, 2 s to gather a batch, both from the environment', () => {
    expect(loadAgentConfig({ readFile: files({}) })).toMatchObject({ prizeEventSpoolMax: 50_000, prizeEventFlushSeconds: 2 });
    const c = loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_PRIZE_EVENT_SPOOL_MAX: '200', VEND_AGENT_PRIZE_EVENT_FLUSH_SECONDS: '0' } });
    expect(c).toMatchObject({ prizeEventSpoolMax: 200, prizeEventFlushSeconds: 0 });
  });

  it('screen ads: a minute between loop fetches, stale after 5 minutes, 50 000 plays kept, 256 MiB of media, kiosk origins as a list', () => {
    expect(loadAgentConfig({ readFile: files({}) })).toMatchObject({
      adRefreshSeconds: 60,
      adStaleSeconds: 300,
      adPlaySpoolMax: 50_000,
      adPlayFlushSeconds: 30,
      adMediaCacheMb: 256,
      kioskOrigins: [],
    });
    const c = loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_KIOSK_ORIGINS: 'https://kiosk.example, http://127.0.0.1:5173/' } });
    expect(c.kioskOrigins).toEqual(['https://kiosk.example', 'http://127.0.0.1:5173']);
    for (const bad of ['https://kiosk.example/path', 'file:///kiosk.html', 'null', '*']) {
      expect(() => loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_KIOSK_ORIGINS: bad } }), bad).toThrow(/VEND_AGENT_KIOSK_ORIGINS: an origin/);
    }
    expect(() => loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_AD_PLAY_SPOOL_MAX: '99' } })).toThrow(/VEND_AGENT_AD_PLAY_SPOOL_MAX/);
  });

  it('refuses any control address but loopback', () => {
    for (const host of ['0.0.0.0', '192.168.0.2', '::', 'localhost']) {
      expect(() => loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_CONTROL_HOST: host } })).toThrow(/loopback only/);
    }
    expect(loadAgentConfig({ readFile: files({}), flags: { controlHost: '::1' } }).controlHost).toBe('::1');
  });

  it('reports every problem at once, naming where each came from', () => {
    try {
      loadAgentConfig({
        readFile: files({ '/x.json': JSON.stringify({ bogus: 1, httpTimeoutMs: 5 }) }),
        configFile: '/x.json',
        env: { VEND_AGENT_CLOUD_URL: 'ftp://nope', VEND_AGENT_DOWNLOAD_TIMEOUT_MS: '1000' },
        flags: { equipmentNo: 'bad serial!' },
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AgentConfigError);
      const problems = (e as AgentConfigError).problems.join('\n');
      expect(problems).toMatch(/unknown setting "bogus"/);
      expect(problems).toMatch(/httpTimeoutMs/);
      expect(problems).toMatch(/VEND_AGENT_CLOUD_URL/);
      expect(problems).toMatch(/VEND_AGENT_DOWNLOAD_TIMEOUT_MS/);
      expect(problems).toMatch(/--equipment-no/);
    }
  });

  it('a named config file that is missing is an error; the default one may be absent', () => {
    expect(() => loadAgentConfig({ readFile: files({}), configFile: '/nope.json' })).toThrow(/no such file/);
    expect(() => loadAgentConfig({ readFile: files({}) })).not.toThrow();
  });

  it('an empty VEND_AGENT_MACHINE_ID_FILE turns the machine-id off; config show masks the fleet secret', () => {
    const c = loadAgentConfig({ readFile: files({}), env: { VEND_AGENT_MACHINE_ID_FILE: '', VEND_AGENT_FLEET_SECRET: 'sbx-fleet-secret-4b2d' } });
    expect(c.machineIdFile).toBe('');
    const shown = JSON.stringify(describeConfig(c));
    expect(shown).not.toContain('sbx-fleet-secret-4b2d');
    expect(shown).toContain('sbx-… (21 chars)');
  });
});
