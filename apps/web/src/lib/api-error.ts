import type { ErrorsMap, Problem } from '@datalab/contract/errors';

// Every failure of a call through the API client becomes one of these (code-style habit 8).

export type ApiErrorKind =
  | 'validation' // 400, with the errors map
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'http' // any other non-2xx status
  | 'network' // no response at all
  | 'invalid-response' // a 2xx whose body does not match the contract
  | 'aborted'; // cancelled by the caller (no toast)

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number | null;
  errors?: ErrorsMap;
  problem?: Problem | null;
  body?: string | null;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status, or null when no response arrived. */
  readonly status: number | null;
  /** Field → messages of a 400 (empty otherwise). */
  readonly errors: ErrorsMap;
  /** The parsed product §16 reply, when the body was one. */
  readonly problem: Problem | null;
  /** The raw response body, for developer mode. */
  readonly body: string | null;

  constructor(init: ApiErrorInit) {
    super(init.message, { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.errors = init.errors ?? {};
    this.problem = init.problem ?? null;
    this.body = init.body ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A 404 from the API: the thing is gone or hidden from the caller (product §14). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
