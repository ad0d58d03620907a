/** The fixed set of error codes and the one table that maps them to HTTP status and default message. */
export const ERROR_TABLE = {
  bad_request: { status: 400, message: 'Bad request — invalid or missing parameters' },
  unauthorized: { status: 401, message: 'Invalid API key' },
  forbidden: { status: 403, message: 'Insufficient scope' },
  not_found: { status: 404, message: 'Not found' },
  machine_not_found: { status: 404, message: 'Machine not found' },
  conflict: { status: 409, message: 'Conflict' },
  gone: { status: 410, message: 'Gone' },
  validation: { status: 422, message: 'Validation error' },
  precondition_required: { status: 428, message: 'Precondition required' },
  rate_limited: { status: 429, message: 'Rate limit exceeded' },
  upstream: { status: 502, message: 'Upstream error' },
  unavailable: { status: 503, message: 'Service unavailable' },
  internal: { status: 500, message: 'Internal server error' },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export interface FieldIssue {
  path: string;
  message: string;
}

/** The one error class: a code from the table, an optional specific message, optional detail and headers. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly options: { issues?: FieldIssue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message ?? ERROR_TABLE[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = ERROR_TABLE[code].status;
  }
}

export const badRequest = (message?: string, issues?: FieldIssue[]) =>
  new AppError('bad_request', message ?? ERROR_TABLE.bad_request.message, issues ? { issues } : {});
export const machineNotFound = () => new AppError('machine_not_found');
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);
export const unauthorized = (message?: string) => new AppError('unauthorized', message);
export const insufficientScope = () => new AppError('forbidden');
