import { z } from 'zod';
import { errorsMap, problem, validationProblem } from '@datalab/contract/errors';
import { texts } from '@datalab/contract/texts';
import { ApiError } from './api-error.ts';
import { validationLines } from './field-errors.ts';
import { markSessionEnded } from './auth/session-ended.ts';
import { unauthorisedPageUrl } from './error-page-url.ts';
import { notifyError } from './notify.ts';

// product §8's response handling, in one place (code-style habit 8). Each function reports the failure
// to the user the way the spec says and returns the ApiError the call fails with.

export interface FailureContext {
  method: string;
  url: string;
  isDeveloperMode: boolean;
  goToErrorPage: (url: string) => void;
  /** Statuses the caller shows itself (see CallInput.quietStatuses). */
  quietStatuses?: readonly number[];
  /** Fields whose 400 messages the form shows under the field itself (see CallInput.inlineFields). */
  inlineFields?: readonly string[];
}

/** A 409 carries the errors map too ('Collection with name X already exists' on `name`). */
const withErrors = z.object({ errors: errorsMap });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a status other than 400, 401 and 403 says outside developer mode: the texts the product has for too many
 * requests (429) and a target that could not process a valid call (502), the unknown-error text for the rest.
 */
export function statusText(status: number): string {
  if (status === 429) return texts.tooManyRequests;
  if (status === 502) return texts.badGateway;
  return texts.unknownError;
}

export function httpFailure(status: number, body: string, context: FailureContext): ApiError {
  const json = parseJson(body);
  const parsedProblem = problem.safeParse(json);
  const replyProblem = parsedProblem.success ? parsedProblem.data : null;

  if (status === 400) {
    const validation = validationProblem.safeParse(json);
    const errors = validation.success ? validation.data.errors : {};
    // The toast carries what no field shows: a form showing every refused field under itself raises none.
    const lines = validationLines(errors, context.inlineFields);
    const isAllInline = Object.keys(errors).length > 0 && lines.length === 0;
    const message = lines.length > 0 ? lines.join('\n') : (replyProblem?.title ?? texts.unknownError);
    if (!isAllInline && !context.quietStatuses?.includes(400)) notifyError(message);
    return new ApiError({ kind: 'validation', status, errors, problem: replyProblem, body, message });
  }
  if (status === 401) {
    notifyError(texts.unauthenticatedToast);
    // The API no longer accepts this session: the screens offer to sign in again (session-ended.ts).
    markSessionEnded();
    return new ApiError({
      kind: 'unauthenticated',
      status,
      problem: replyProblem,
      body,
      message: texts.unauthenticatedToast,
    });
  }
  if (status === 403) {
    const details = context.isDeveloperMode ? `${status} ${context.method} ${context.url}\n${body}` : undefined;
    context.goToErrorPage(unauthorisedPageUrl(details));
    return new ApiError({
      kind: 'forbidden',
      status,
      problem: replyProblem,
      body,
      message: texts.unauthorised.message,
    });
  }
  const message = context.isDeveloperMode ? body || `${status} ${context.method} ${context.url}` : statusText(status);
  const errors = withErrors.safeParse(json);
  if (!context.quietStatuses?.includes(status)) notifyError(message);
  return new ApiError({
    kind: 'http',
    status,
    errors: errors.success ? errors.data.errors : {},
    problem: replyProblem,
    body,
    message,
  });
}

export function networkFailure(cause: unknown, context: FailureContext): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const message = context.isDeveloperMode ? detail : texts.unknownError;
  notifyError(message);
  return new ApiError({ kind: 'network', message, cause });
}

export function invalidResponse(status: number, body: string, cause: unknown, context: FailureContext): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const message = context.isDeveloperMode
    ? `${context.method} ${context.url} answered ${status} with a body that does not match the contract: ${detail}`
    : texts.unknownError;
  notifyError(message);
  return new ApiError({ kind: 'invalid-response', status, body, message, cause });
}

export function aborted(cause: unknown): ApiError {
  return new ApiError({ kind: 'aborted', message: 'The request was cancelled', cause });
}
