// Errors are values with a stable code. The message is always safe to show: it never carries a password, a
// connection string or a driver's internals. The server maps codes to statuses (POOL_EXHAUSTED → 503, ...).

export const engineErrorCodes = [
  'TIMEOUT',
  'ROW_CAP',
  'UNREACHABLE',
  'SYNTAX',
  'WRITE_REFUSED',
  'MULTIPLE_STATEMENTS',
  'POOL_EXHAUSTED',
  'CANCELLED',
  'QUERY_FAILED',
  'INVALID_PARAMETERS',
  'INVALID_TRANSFORMATION',
  'UPSTREAM_FAILED',
  'TOO_LARGE',
  'TARGET_REFUSED',
  'PRIVILEGED_ACCOUNT',
] as const;
export type EngineErrorCode = (typeof engineErrorCodes)[number];

const safeMessages: Record<EngineErrorCode, string> = {
  TIMEOUT: 'The query ran over its time limit',
  ROW_CAP: 'The result is larger than the row cap',
  UNREACHABLE: 'The database could not be reached',
  SYNTAX: 'The query has a syntax error',
  WRITE_REFUSED: 'The query tried to write; data sources are read-only',
  MULTIPLE_STATEMENTS: 'Only one statement is allowed per query',
  POOL_EXHAUSTED: 'No free connection to the database; try again shortly',
  CANCELLED: 'The query was cancelled',
  QUERY_FAILED: 'The query failed',
  INVALID_PARAMETERS: 'The parameter values are not valid',
  INVALID_TRANSFORMATION: 'The transformation is not valid',
  UPSTREAM_FAILED: 'The web API did not answer as expected',
  TOO_LARGE: 'The reply is larger than the size limit',
  TARGET_REFUSED: 'The address may not be reached from this connection',
  PRIVILEGED_ACCOUNT: 'The database account may do more than read: connect with an account that may only read',
};

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  /** Field → messages, for INVALID_PARAMETERS and INVALID_TRANSFORMATION (product §5 templates). */
  readonly errors: Record<string, string[]> | undefined;

  constructor(
    code: EngineErrorCode,
    message?: string,
    options?: { cause?: unknown; errors?: Record<string, string[]> },
  ) {
    super(message ?? safeMessages[code], options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngineError';
    this.code = code;
    this.errors = options?.errors;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}

/** Any abort reason becomes an EngineError: a TIMEOUT when our own timer fired, otherwise CANCELLED. */
export function abortError(signal: AbortSignal): EngineError {
  const reason: unknown = signal.reason;
  if (reason instanceof EngineError) return reason;
  return new EngineError('CANCELLED');
}
