import { statSync } from 'node:fs';
import { Command } from 'commander';
import { parseDeviceKey } from '@vend/protocol';
import { mask } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDir } from '../../state/state-dir.ts';
import { configOf } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { row } from './format.ts';

/** `vend-agent credential show`: the stored device credential, masked. */
export function credentialCommand({ deps, setExit, guarded }: CommandContext): Command {
  const credential = new Command('credential').description('the cabinet credential');
  credential
    .command('show')
    .description('the stored device credential, masked: key id, state, file mode')
    .option('--json', 'print one JSON object')
    .addHelpText('after', `\nExit codes: ${EXIT_CODES.ok} a credential is stored, ${EXIT_CODES.notEnrolled} none, ${EXIT_CODES.revoked} revoked.`)
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        const state = new StateDir(config.stateDir);
        const value = state.readCredential();
        const enrolment = state.readEnrolment();
        const parsed = value ? parseDeviceKey(value) : null;
        let mode: string | null = null;
        try {
          mode = (statSync(state.path('credential')).mode & 0o777).toString(8).padStart(4, '0');
        } catch {
          mode = null;
        }
        const view = {
          state: enrolment?.state ?? (parsed ? 'enrolled' : 'not-enrolled'),
          keyId: parsed?.keyId ?? null,
          secret: parsed ? mask(parsed.secret) : null,
          file: state.path('credential'),
          mode,
          since: enrolment ? new Date(enrolment.at).toISOString() : null,
          message: enrolment?.message ?? null,
        };
        if (flags['json']) deps.stdout(JSON.stringify(view) + '\n');
        else
          deps.stdout(
            [
              `credential: ${view.state}`,
              row('key id', view.keyId ?? '—'),
              row('secret', view.secret ?? '—'),
              row('file', `${view.file}${mode ? ` (mode ${mode}${mode !== '0600' ? ' — should be 0600' : ''})` : ' (none)'}`),
              ...(view.message ? [row('cloud said', view.message)] : []),
            ].join('\n') + '\n',
          );
        setExit(view.state === 'revoked' ? EXIT_CODES.revoked : parsed ? EXIT_CODES.ok : EXIT_CODES.notEnrolled);
      }),
    );
  return credential;
}
