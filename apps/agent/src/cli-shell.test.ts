import { describe, expect, it } from 'vitest';
import { commandOf } from './cli-shell.ts';

const argv = (...a: string[]): string[] => ['node', 'vend-agent', ...a];

describe('commandOf: which command a command line names (the release entry loads only that part)', () => {
  it('finds the command after the global options, with their values in either form', () => {
    expect(commandOf(argv('run', '--cloud-url', 'http://x'))).toBe('run');
    expect(commandOf(argv('--state-dir', '/s', '--control-port', '0', 'run'))).toBe('run');
    expect(commandOf(argv('--state-dir=/s', '--config', '/c.json', '--control-host', '::1', 'status'))).toBe('status');
    // a value that looks like a command is the option's value, not the command
    expect(commandOf(argv('--state-dir', 'run', 'status'))).toBe('status');
  });

  it('no command: nothing, help, or an option the program does not know', () => {
    expect(commandOf(argv())).toBeNull();
    expect(commandOf(argv('--help'))).toBeNull();
    expect(commandOf(argv('--bogus', 'run'))).toBeNull();
  });
});
