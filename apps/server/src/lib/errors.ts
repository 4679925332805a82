import type { ErrorCode, ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import { texts } from '@datalab/contract/texts';

// Errors are values with a stable code (code-style habit 6). Routes and services throw these; one
// handler (plugins/errors.ts) turns them into the reply shapes of product §16.

export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly title: string;
  readonly errors: ErrorsMap | undefined;
  readonly headers: Record<string, string>;

  constructor(options: {
    status: number;
    code: ErrorCode;
    title: string;
    detail?: string;
    errors?: ErrorsMap;
    headers?: Record<string, string>;
  }) {
    super(options.detail ?? options.title);
    this.name = 'AppError';
    this.status = options.status;
    this.code = options.code;
    this.title = options.title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const validation = (errors: ErrorsMap) =>
  new AppError({ status: 400, code: 'validation', title: 'One or more validation errors occurred.', errors });

/** A single-field validation error. */
export const invalid = (field: string, message: string) => validation({ [field]: [message] });

/** The 401 of a request that sent a bearer credential the server refused, whatever was wrong with it. */
export const INVALID_TOKEN = {
  title: 'The token is invalid, revoked or expired',
  detail:
    'Send an active token in the Authorization header: sign in again, or create a new Data Lab token under ' +
    'Tokens if this one was revoked or has expired.',
} as const;

/**
 * 401. Without a credential: the sign-in text. With one that was refused (`credentialSent`): the same reply for a
 * token that is unknown, mistyped, revoked, expired or a session that ended, so the reply tells nothing about which.
 */
export const unauthenticated = (credentialSent = false) =>
  credentialSent
    ? new AppError({ status: 401, code: 'unauthenticated', ...INVALID_TOKEN })
    : new AppError({ status: 401, code: 'unauthenticated', title: texts.unauthenticated });

export const forbidden = () =>
  new AppError({
    status: 403,
    code: 'forbidden',
    title: texts.unauthorised.summary,
    detail: texts.unauthorised.message,
  });

export const notFound = (entity?: string, id?: string | number) =>
  new AppError({
    status: 404,
    code: 'not_found',
    title: entity !== undefined && id !== undefined ? messages.doesNotExist(entity, id) : texts.notFound,
  });

export const conflict = (entity: string, id: string | number) =>
  new AppError({ status: 409, code: 'conflict', title: messages.alreadyExists(entity, id) });

export const nameConflict = (entity: string, name: string) =>
  new AppError({
    status: 409,
    code: 'conflict',
    title: messages.alreadyExistsNamed(entity, name),
    errors: { name: [messages.alreadyExistsNamed(entity, name)] },
  });

export const payloadTooLarge = (limitBytes: number) =>
  new AppError({
    status: 413,
    code: 'payload_too_large',
    title: 'Request body too large',
    detail: `The request body exceeds the limit of ${limitBytes} bytes.`,
  });

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError({
    status: 429,
    code: 'rate_limited',
    title: texts.tooManyRequests,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const upstream = () => new AppError({ status: 502, code: 'upstream', title: texts.badGateway });

export const upstreamTimeout = () =>
  new AppError({ status: 504, code: 'upstream_timeout', title: 'The target did not answer in time.' });

export const unavailable = (detail: string) =>
  new AppError({ status: 503, code: 'unavailable', title: 'Service unavailable', detail });
