import { Command } from 'commander';
import { ControlEnrolment } from '@vend/protocol';
import { AgentConfigError } from '../../config.ts';
import type { AgentConfig } from '../../config.ts';
import { CloudClient } from '../../cloud/client.ts';
import { StateCredentialStore } from '../../cloud/credentials.ts';
import { Enroller } from '../../cloud/enrolment.ts';
import { cloudTransport } from '../../cloud/http.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDir } from '../../state/state-dir.ts';
import { ControlUnreachable } from '../client.ts';
import { configOf, controlClient } from './context.ts';
import type { AgentCommandDeps, CommandContext, Flags } from './context.ts';

/** `vend-agent enrol`: through the daemon when it runs, else one attempt of its own. */
export function enrolCommand({ deps, setExit, guarded }: CommandContext): Command {
  const out = deps.stdout;
  const err = deps.stderr;
  return new Command('enrol')
    .description('enrol this cabinet now with the fleet secret (through the daemon when it runs)')
    .option('--json', 'print one JSON object')
    .option('--cloud-url <url>', 'the cloud (when the daemon is not running)')
    .option('--equipment-no <serial>', "this cabinet's serial (when the daemon is not running)")
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} enrolled, ${EXIT_CODES.notEnrolled} not enrolled (waiting for an arm: 428; conflict: 409 — a technician must reset the identity; failing), ${EXIT_CODES.revoked} revoked.`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd, { cloudUrl: flags['cloudUrl'], equipmentNo: flags['equipmentNo'] });
        let result: ControlEnrolment;
        try {
          const answer = await controlClient(config).call('POST', '/v1/enrol', ControlEnrolment);
          if (!answer.ok) {
            err(`the control channel refused: ${answer.status} ${answer.body.message}\n`);
            setExit(EXIT_CODES.refused);
            return;
          }
          result = answer.body;
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          result = await enrolOffline(config, deps);
        }
        const state = result.state;
        const message = 'message' in result ? result.message : '';
        if (flags['json']) out(JSON.stringify(result) + '\n');
        else out(`enrolment: ${state}${result.keyId ? ` (key ${result.keyId})` : ''}${message ? ` — ${message}` : ''}\n`);
        setExit(state === 'enrolled' ? EXIT_CODES.ok : state === 'revoked' ? EXIT_CODES.revoked : EXIT_CODES.notEnrolled);
      }),
    );
}

/** `vend-agent enrol` with no daemon running: one attempt, holding the state directory meanwhile. */
async function enrolOffline(config: AgentConfig, deps: AgentCommandDeps): Promise<ControlEnrolment> {
  if (!config.cloudUrl || !config.equipmentNo || !config.fleetSecret)
    throw new AgentConfigError([
      ...(config.cloudUrl ? [] : ['cloudUrl: required to enrol']),
      ...(config.equipmentNo ? [] : ['equipmentNo: required to enrol']),
      ...(config.fleetSecret ? [] : ['fleetSecret: required to enrol (VEND_AGENT_FLEET_SECRET or the config file)']),
    ]);
  const state = new StateDir(config.stateDir);
  state.ensure();
  const lock = state.acquirePidLock();
  const http = deps.http ? { transport: deps.http, close: async () => {} } : cloudTransport();
  try {
    const credentials = new StateCredentialStore(state, () => deps.clock.now());
    const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const client = new CloudClient({
      baseUrl: config.cloudUrl,
      equipmentNo: config.equipmentNo,
      fleetSecret: config.fleetSecret,
      credentials,
      transport: http.transport,
      clock: deps.clock,
      random: Math.random,
      timeoutMs: config.httpTimeoutMs,
      backoff: { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs },
      log: quiet,
    });
    const enroller = new Enroller({
      client,
      credentials,
      deviceId: state.deviceId(config.machineIdFile === '' ? null : config.machineIdFile).deviceId,
      clock: deps.clock,
      random: Math.random,
      log: quiet,
      recordConflict: (message) => state.writeEnrolment({ state: 'conflict', keyId: null, machineCode: null, message, at: deps.clock.now() }),
    });
    const status = await enroller.attempt();
    return { ...status, keyId: credentials.keyId() };
  } finally {
    await http.close();
    lock.release();
  }
}
