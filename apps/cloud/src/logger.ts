import pino, { type Logger } from 'pino';

/** Header and body fields that carry secrets: never written to a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-device-key"]',
  'req.headers.secret',
  'req.headers.cookie',
  'res.headers["x-device-credential"]',
  'req.headers["x-device-witness"]',
  'res.headers["x-device-witness"]',
  '*.password',
  '*.client_secret',
  '*.deviceKey',
  '*.secret',
  // sign-in and OAuth fields (bodies are not logged today; this keeps them out if one ever is)
  'req.body.client_secret',
  'req.body.password',
  'req.body.code',
  '*.access_token',
  '*.token',
  '*.ticket',
  '*.idToken',
  '*.recoveryCode',
  '*.recoveryCodes',
  '*.otpauthUrl',
  '*.apiKey',
  // the self-serve marketplace's buyer tokens
  '*.statusToken',
  '*.draftToken',
];

/** Paths that carry a secret token as a segment: the buyer's status page. */
const SECRET_PATH = /^(\/advertise\/status\/)[^/?#]+/;

/** A request URL as it may be logged: a secret path segment replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]');
}

export function createLogger(opts: { level: string; pretty: boolean; destination?: pino.DestinationStream }): Logger {
  const base = { level: opts.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (opts.pretty && !opts.destination) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } });
  }
  return opts.destination ? pino(base, opts.destination) : pino(base);
}
