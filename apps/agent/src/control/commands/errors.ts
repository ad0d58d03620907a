import { AgentConfigError } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDirError, StateDirUnusable } from '../../state/state-dir.ts';
import { ControlBadAnswer } from '../client.ts';
import { ControlBindError } from '../server.ts';
import type { CommandContext } from './context.ts';

/** Read syscalls: a permission error there means "cannot read". */
const READ_SYSCALLS = new Set(['open', 'read', 'stat', 'lstat', 'fstat', 'scandir', 'access', 'readlink']);

/**
 * A file-system error as the technician should see it: one line and an exit code, or null when it is
 * not one (a bug, reported as an internal error). Permission problems are 77 (EX_NOPERM): the state
 * directory is 0700, root's or the vend-agent user's. A state-directory path that is not a directory
 * (or runs through a file) is a configuration mistake: 78.
 */
export function fsProblem(thrown: unknown): { message: string; exit: number } | null {
  const err = thrown as NodeJS.ErrnoException;
  if (!(thrown instanceof Error) || typeof err.code !== 'string' || typeof err.syscall !== 'string') return null;
  const path = err.path ?? 'a file of the state directory';
  if (err.code === 'EACCES' || err.code === 'EPERM') {
    const verb = !err.syscall || READ_SYSCALLS.has(err.syscall) ? 'read' : 'write';
    return { message: `cannot ${verb} ${path}: run as root or as the vend-agent user`, exit: EXIT_CODES.noPermission };
  }
  if (err.code === 'ENOTDIR' || err.code === 'EISDIR' || err.code === 'ELOOP' || err.code === 'ENAMETOOLONG') {
    const what = err.code === 'EISDIR' ? 'is a directory, not a file' : err.code === 'ENOTDIR' ? 'runs through something that is not a directory' : err.code;
    return { message: `cannot use ${path}: ${what} — check --state-dir / VEND_AGENT_STATE_DIR`, exit: EXIT_CODES.config };
  }
  if (err.code === 'EROFS' || err.code === 'ENOSPC' || err.code === 'EIO') {
    return { message: `cannot write ${path}: ${err.code}`, exit: EXIT_CODES.config };
  }
  return null;
}

/** A problem a technician can fix, as one line and its exit code; null for anything else (a bug). */
function problemOf(e: unknown): { line: string; exit: number } | null {
  if (e instanceof AgentConfigError) return { line: e.message, exit: EXIT_CODES.config };
  if (e instanceof StateDirUnusable) return { line: `error: ${e.message} — check --state-dir / VEND_AGENT_STATE_DIR`, exit: EXIT_CODES.config };
  if (e instanceof StateDirError) return { line: `error: ${e.message}`, exit: EXIT_CODES.locked };
  if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return {
      line: `error: the control channel's port is in use (${(e as Error).message}); is another agent running on this host?`,
      exit: EXIT_CODES.locked,
    };
  if (e instanceof ControlBadAnswer) return { line: `error: ${e.message}`, exit: EXIT_CODES.badAnswer };
  if (e instanceof ControlBindError) return { line: `error: ${e.message}`, exit: EXIT_CODES.config };
  const fs = fsProblem(e);
  return fs ? { line: `error: ${fs.message}`, exit: fs.exit } : null;
}

/** The guard of every command body: the errors a technician can fix become one line and their exit code; anything else is rethrown (internal error). */
export function exitCodeGuard(err: (text: string) => void, setExit: (code: number) => void): CommandContext['guarded'] {
  return (body) =>
    async (...args) => {
      try {
        await body(...args);
      } catch (e) {
        const problem = problemOf(e);
        if (!problem) throw e;
        err(`${problem.line}\n`);
        setExit(problem.exit);
      }
    };
}
