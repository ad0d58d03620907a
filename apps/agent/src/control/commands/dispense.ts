import { Command, Option } from 'commander';
import { ControlVendResult, PAY_METHODS } from '@vend/protocol';
import { EXIT_CODES } from '../../exit-codes.ts';
import { ControlBadAnswer, ControlNoAnswer, ControlUnreachable } from '../client.ts';
import { configOf, controlClient, integerIn } from './context.ts';
import type { CommandContext, Flags } from './context.ts';

/** `vend-agent dispense`: a walk-up sale of one aisle through the daemon's control channel. */
export function dispenseCommand({ deps, setExit, guarded }: CommandContext): Command {
  const out = deps.stdout;
  const err = deps.stderr;
  return new Command('dispense')
    .description('vend one aisle as a walk-up sale (the order, the motor, the report), through the control channel')
    .requiredOption('--aisle <n>', 'aisle number: (row − 1) × columnsPerRow + column', integerIn('--aisle', 1, 1024))
    .addOption(new Option('--pay-method <method>', 'how the customer paid').choices([...PAY_METHODS]).default('cash'))
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} vended, ${EXIT_CODES.vendFailed} the board did not vend (outcome says why; the order is refunded), ${EXIT_CODES.refused} refused before the motor ran (busy, not ready, empty token, the cloud refused the order), ${EXIT_CODES.daemonDown} the daemon is not running, ${EXIT_CODES.outcomeUnknown} the daemon took the request but gave no answer in time (or one this vend-agent cannot read): the vend may still be in progress (see vend-agent status and GET /v1/vends before trying again).`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        let answer;
        try {
          answer = await controlClient(config, deps.dispenseTimeoutMs ?? 90_000).call('POST', '/v1/dispense', ControlVendResult, {
            aisle: flags['aisle'],
            payMethod: flags['payMethod'],
          });
        } catch (e) {
          if (e instanceof ControlNoAnswer || e instanceof ControlBadAnswer) {
            // the request reached the daemon: the vend may be under way (or done); a second try could vend twice
            err(
              `${e.message}\nthe vend of aisle ${String(flags['aisle'])} may still be in progress: check \`vend-agent status\` and the last vends (GET /v1/vends) before trying again\n`,
            );
            setExit(EXIT_CODES.outcomeUnknown);
            return;
          }
          if (!(e instanceof ControlUnreachable)) throw e;
          err(`${e.message}\n`);
          setExit(EXIT_CODES.daemonDown);
          return;
        }
        if (flags['json']) out(JSON.stringify({ httpStatus: answer.status, ...answer.body }) + '\n');
        if (!answer.ok) {
          if (!flags['json']) err(`dispense refused (${answer.status} ${answer.body.error}): ${answer.body.message}\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        const vend = answer.body;
        if (!flags['json']) out(`aisle ${vend.aisle}: ${vend.outcome} — ${vend.detail}\n  order ${String(vend.orderNumber)}, dispense ${vend.dispenseId}\n`);
        setExit(vend.success ? EXIT_CODES.ok : EXIT_CODES.vendFailed);
      }),
    );
}
