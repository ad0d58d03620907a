import { renameSync, statSync } from 'node:fs';
import { pino } from 'pino';
import type { Logger } from 'pino';

/** The log file is rotated at start once it passes this size (one old generation is kept: agent.log.1). */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

/** Field names never written to a log, whatever a caller passes (pino redaction). */
export const REDACTED_PATHS = [
  'secret',
  'deviceKey',
  'credential',
  'token',
  'fleetSecret',
  'adminPin',
  '*.secret',
  '*.deviceKey',
  '*.credential',
  '*.token',
  '*.fleetSecret',
  '*.adminPin',
  'headers["x-device-key"]',
  'headers.secret',
  'headers.authorization',
];

/**
 * The daemon's logger: JSON lines to `<stateDir>/agent.log` (what `vend-agent logs` tails) and to
 * stdout (the journal of the service manager). Secrets are never logged; the redaction is a net.
 */
export function createAgentLogger(o: { file: string | null; level: string; stdout?: NodeJS.WritableStream | null }): Logger {
  const streams: { stream: NodeJS.WritableStream | pino.DestinationStream; level: pino.Level }[] = [];
  const level = (o.level === 'silent' ? 'fatal' : o.level) as pino.Level;
  if (o.file) {
    try {
      if (statSync(o.file).size > LOG_ROTATE_BYTES) renameSync(o.file, `${o.file}.1`);
    } catch {
      // no log yet
    }
    streams.push({ stream: pino.destination({ dest: o.file, sync: true, mkdir: true, mode: 0o640 }), level });
  }
  if (o.stdout) streams.push({ stream: o.stdout, level });
  return pino(
    { level: o.level, base: { pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.multistream(streams),
  );
}
