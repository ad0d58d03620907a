/** Exit codes of every vend-agent command (the one table: the CLI and each command import it). */
export const EXIT_CODES = {
  ok: 0,
  /** The board answered, and reports something a technician must look at. */
  boardFault: 1,
  /** dispense: the board did not vend (the outcome says why; the order is refunded). */
  vendFailed: 1,
  /** The port could not be opened, or opened but the board never answered. */
  boardUnavailable: 2,
  /** The board answered but refused or garbled the conversation. */
  protocolError: 3,
  /** status: the daemon runs, and something needs a technician (the lines say what). */
  attention: 4,
  /** The daemon is not running (status then reads the state directory). */
  daemonDown: 5,
  /** A dispense was refused before the motor ran (busy, not ready, unauthorised, the cloud refused the order). */
  refused: 6,
  /** enrol / credential: not enrolled (yet): waiting for an arm, conflict, or failing. */
  notEnrolled: 7,
  /** The cabinet credential is revoked; it never enrols again. */
  revoked: 8,
  /** dispense: the daemon took the request but gave no answer in time — the vend may still be in progress. */
  outcomeUnknown: 9,
  /** service …: the service code was wrong, the service functions are locked (5 wrong codes: 300 s), or no code is set. */
  serviceRefused: 10,
  /** network set: the new network did not reach the cloud within 90 s; the cabinet is back on the previous one. */
  networkReverted: 11,
  usage: 64,
  /** A bug: an error nothing above accounts for. */
  internal: 70,
  /** Another daemon holds the state directory. */
  locked: 75,
  /** The daemon's control channel answered with something this vend-agent does not understand (EX_PROTOCOL): another version, or a bug. */
  badAnswer: 76,
  /** A file of the state directory cannot be read or written by this user (EX_NOPERM): run as root or as the vend-agent user. */
  noPermission: 77,
  /** The configuration is invalid (every problem is printed), or the state directory path is not a usable directory. */
  config: 78,
} as const;
