/**
 * Exit codes of every vendctl command (sysexits.h where one fits, like vend-agent), documented in
 * apps/fleetctl/README.md. Scripts can tell "the cloud said no" from "fix your flags" from "try later".
 */
export const EXIT_CODES = {
  ok: 0,
  /** The cloud refused the request on its merits (400, 404, 409, 410, 422): the message says why. */
  refused: 1,
  /** Bad or missing flags, or no cloud URL / API key configured. */
  usage: 64,
  /** Local data that is wrong: a manifest or key that does not parse, an artifact that does not match, a tree with a link in it. */
  dataError: 65,
  /** A file or directory named on the command line does not exist or cannot be read. */
  noInput: 66,
  /** The cloud could not be reached, timed out, rate-limited us (429) or failed (5xx): try again later. */
  unavailable: 69,
  /** A bug: an error nothing above accounts for. */
  internal: 70,
  /** An output file exists already (without --force) or cannot be written. */
  cantCreate: 73,
  /** The credential was refused (401) or lacks the right (403): release calls need a full-admin key. */
  noPermission: 77,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** An expected failure: printed as `vendctl: <message>` and turned into its exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

/** The exit code for an HTTP status the cloud answered with. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT_CODES.noPermission;
  if (status === 429 || status >= 500) return EXIT_CODES.unavailable;
  return EXIT_CODES.refused;
}

/** Turns a file-system error into the right CliError (missing input, unwritable output). */
export function fileError(err: unknown, what: string, direction: 'read' | 'write'): CliError {
  const code = (err as { code?: string } | null)?.code;
  if (direction === 'read')
    return new CliError(EXIT_CODES.noInput, `cannot read ${what}: ${code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
  if (code === 'EEXIST') return new CliError(EXIT_CODES.cantCreate, `${what} exists already (pass --force to replace it)`);
  return new CliError(EXIT_CODES.cantCreate, `cannot write ${what}: ${(err as Error).message}`);
}
