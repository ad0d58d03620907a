import { Command } from 'commander';
import { ControlNetworkStatus, ControlNetworkSwitch, ControlNetworkToken, NETWORK_LIMITS, NetworkRequest } from '@vend/protocol';
import { sleep } from '../../cloud/backoff.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { ControlNoAnswer, ControlUnreachable } from '../client.ts';
import type { ControlClient } from '../client.ts';
import { configOf, controlClient } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { row } from './format.ts';
import { readSecretLine } from './secret-input.ts';

const DAEMON_DOWN = 'the agent daemon is not running: network provisioning runs in it (systemctl start vend-agent)';

export function formatNetwork(status: ControlNetworkStatus): string {
  const lines = [row('active', status.active ?? 'none')];
  if (status.switching)
    lines.push(row('switching', `to ${status.switching.label} (${status.switching.target}) since ${status.switching.startedAt}: ${status.switching.phase}`));
  if (status.last) lines.push(row('last switch', `${status.last.label}: ${status.last.outcome} at ${status.last.at} — ${status.last.reason}`));
  lines.push(row('remembered', status.remembered.length === 0 ? 'none' : status.remembered.map((r) => `${r.label} (${r.id})`).join(', ')));
  return lines.join('\n') + '\n';
}

/** The request the flags describe, or what is wrong with them. */
async function requestOf(flags: Flags, psk: () => Promise<string>): Promise<NetworkRequest | string> {
  const wifi = flags['wifi'] as string | undefined;
  const port = flags['ethernet'] as string | undefined;
  if ((wifi === undefined) === (port === undefined)) return 'give one of --wifi <ssid> or --ethernet <interface>';
  const candidate =
    wifi !== undefined
      ? { kind: 'wifi', ssid: wifi, ...(flags['open'] ? {} : { psk: await psk() }) }
      : {
          kind: 'ethernet',
          interface: port,
          ...(flags['address'] ? { address: flags['address'] } : {}),
          ...(flags['gateway'] ? { gateway: flags['gateway'] } : {}),
          ...(flags['dns'] ? { dns: String(flags['dns']).split(',') } : {}),
        };
  const parsed = NetworkRequest.safeParse(candidate);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/**
 * `vend-agent network …`: give the cabinet a network through the daemon (spec 2 §8). `token` checks
 * the service code and prints a provisioning token (600 s, one switch); `set` uses one (or asks for
 * the service code itself), starts the switch and follows it until the cloud answered or the
 * previous connection is back (90 s at most).
 */
export function networkCommand({ deps, setExit, guarded }: CommandContext): Command {
  const network = new Command('network').description('network provisioning: status, a provisioning token, a new network (with revert)');
  const readSecret = deps.readSecret ?? ((prompt: string) => readSecretLine(prompt));

  /** Runs `body` against the daemon; the daemon not running is its own exit code. */
  const withDaemon = (body: (client: ControlClient, flags: Flags) => Promise<void>) =>
    guarded(async (flags: Flags, cmd: Command) => {
      try {
        await body(controlClient(configOf(deps, cmd)), flags);
      } catch (e) {
        if (!(e instanceof ControlUnreachable)) throw e;
        // no answer from a daemon that took the request is not "not running": say which
        deps.stderr(`${e instanceof ControlNoAnswer ? e.message : DAEMON_DOWN}\n`);
        setExit(EXIT_CODES.daemonDown);
      }
    });

  /** A token from the service code; null (the refusal printed, exit set) when the code was refused. */
  const tokenFor = async (client: ControlClient): Promise<ControlNetworkToken | null> => {
    const answer = await client.call('POST', '/v1/network/token', ControlNetworkToken, { code: await readSecret('service code: ') });
    if (answer.ok) return answer.body;
    deps.stderr(`refused: ${answer.body.message}\n`);
    setExit(answer.status === 404 ? EXIT_CODES.refused : EXIT_CODES.serviceRefused);
    return null;
  };

  network
    .command('status')
    .description('the connection in force, the networks kept, a switch under way and how the last one ended')
    .option('--json', 'print one JSON object')
    .action(
      withDaemon(async (client, flags) => {
        const answer = await client.call('GET', '/v1/network', ControlNetworkStatus);
        if (!answer.ok) {
          deps.stderr(`refused: ${answer.body.message}\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        deps.stdout(flags['json'] ? JSON.stringify(answer.body) + '\n' : formatNetwork(answer.body));
      }),
    );

  network
    .command('token')
    .description(
      `check the service code and print a provisioning token (valid ${NETWORK_LIMITS.tokenSeconds} s, one switch) for the kiosk UI or a later \`network set\``,
    )
    .action(
      withDaemon(async (client) => {
        const issued = await tokenFor(client);
        if (issued) deps.stdout(`${issued.token}\nvalid until ${issued.expiresAt}, for one network switch\n`);
      }),
    );

  network
    .command('set')
    .description(`give the cabinet a network; back to the previous one if the cloud is not reached within ${NETWORK_LIMITS.verifySeconds} s`)
    .option('--wifi <ssid>', 'a Wi-Fi network (the passphrase is asked for, or read from the first line of stdin)')
    .option('--open', 'the Wi-Fi network has no passphrase')
    .option('--ethernet <interface>', 'a wired port (DHCP unless --address)')
    .option('--address <a.b.c.d/prefix>', 'a static address for the wired port')
    .option('--gateway <a.b.c.d>', 'its gateway')
    .option('--dns <a.b.c.d,...>', 'its name servers')
    .option('--token <token>', 'a provisioning token (`vend-agent network token`); without it the service code is asked for')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} connected, ${EXIT_CODES.networkReverted} back on the previous network, ${EXIT_CODES.attention} the switch had not ended after 150 s, ${EXIT_CODES.serviceRefused} service code refused, ${EXIT_CODES.refused} token refused or a switch under way, ${EXIT_CODES.daemonDown} daemon not running.`,
    )
    .action(
      withDaemon(async (client, flags) => {
        const req = await requestOf(flags, () => readSecret('Wi-Fi passphrase: '));
        if (typeof req === 'string') {
          deps.stderr(`error: ${req}\n`);
          setExit(EXIT_CODES.usage);
          return;
        }
        const token = (flags['token'] as string | undefined) ?? (await tokenFor(client))?.token;
        if (token === undefined) return;
        const started = await client.call('POST', '/v1/network', ControlNetworkSwitch, { token, network: req });
        if (!started.ok) {
          deps.stderr(`refused: ${started.body.message}\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        deps.stderr(`switching to ${started.body.label} (${started.body.id}); waiting for the cloud…\n`);
        // the daemon ends a switch within 90 s (plus going back); past that, say so rather than wait on
        for (let waited = 0; waited <= NETWORK_LIMITS.verifySeconds + 60; waited++) {
          const answer = await client.call('GET', '/v1/network', ControlNetworkStatus);
          if (answer.ok && answer.body.switching === null && answer.body.last) {
            deps.stdout(formatNetwork(answer.body));
            setExit(answer.body.last.outcome === 'connected' ? EXIT_CODES.ok : EXIT_CODES.networkReverted);
            return;
          }
          await sleep(deps.clock, 1000);
        }
        deps.stderr('the switch has not ended: see `vend-agent network status` and the log\n');
        setExit(EXIT_CODES.attention);
      }),
    );
  return network;
}
