import { Command } from 'commander';
import { describeConfig, mask } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDir } from '../../state/state-dir.ts';
import { configOf } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { row } from './format.ts';

/** `vend-agent config show`: the effective configuration and the cloud's last configuration block. */
export function configCommand({ deps, setExit, guarded }: CommandContext): Command {
  const config = new Command('config').description('the agent configuration');
  config
    .command('show')
    .description('the effective agent configuration (secrets masked) and the last configuration block from the cloud')
    .option('--json', 'print one JSON object')
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const agentConfig = configOf(deps, cmd);
        const cached = new StateDir(agentConfig.stateDir).readCachedConfig();
        const block = cached ? { ...cached.config, adminPin: cached.config.adminPin ? mask(cached.config.adminPin) : '' } : null;
        const view = {
          agent: describeConfig(agentConfig),
          cloudConfig: block,
          cloudConfigReceivedAt: cached ? new Date(cached.receivedAt).toISOString() : null,
        };
        if (flags['json']) deps.stdout(JSON.stringify(view) + '\n');
        else {
          const lines = ['agent configuration'];
          for (const [key, value] of Object.entries(view.agent)) lines.push(row(key, String(value ?? '—'), 22));
          lines.push(
            block ? `configuration block from the cloud (received ${String(view.cloudConfigReceivedAt)})` : 'no configuration block from the cloud yet',
          );
          if (block)
            for (const [key, value] of Object.entries(block))
              if (key !== 'features') lines.push(row(key, String(value), 22));
              else
                lines.push(
                  row(
                    'features on',
                    Object.entries(value as Record<string, boolean>)
                      .filter(([, on]) => on)
                      .map(([feature]) => feature)
                      .join(', '),
                    22,
                  ),
                );
          deps.stdout(lines.join('\n') + '\n');
        }
        setExit(EXIT_CODES.ok);
      }),
    );
  return config;
}
