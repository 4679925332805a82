import { isEngineError, type EngineError } from '@datalab/engine';
import { texts } from '@datalab/contract/texts';
import { AppError, upstream, validation } from './errors.ts';

// The one mapping from the engine's error codes to HTTP replies, shared by the management calls (preview,
// parameter data, test connection) and the calling layer (/data/v1). The engine's messages are safe by
// construction (no password, no connection string); SYNTAX and QUERY_FAILED keep the database's text about the
// query, which helps the asset's authors. That text can quote data values, so only authors read it: the management
// calls are theirs, and on /data/v1 an Editor or Owner signed in to the portal. Every other caller (a Reader, any
// Data Lab token) gets the bad-gateway text instead: the call was valid, the data source could not run it. The
// reply's request id names the call; its application-log record keeps the database's text for administrators.

/** Who reads the reply: the asset's authors get the database's own text, other callers the generic one. */
export type ErrorAudience = 'author' | 'caller';

/** Whether an engine error's reply carries the database's own text (which only authors may read). */
export const carriesDatabaseText = (error: EngineError) => error.code === 'SYNTAX' || error.code === 'QUERY_FAILED';

const dataSourceFailed = () =>
  new AppError({
    status: 502,
    code: 'upstream',
    title: texts.badGateway,
    detail:
      'The data source could not run this call. Give the request id to an Editor of the collection: ' +
      'the application log holds the cause under it.',
  });

/** A reply that quotes the database's own text (SYNTAX, QUERY_FAILED): for authors only (forCaller). */
export class DatabaseTextError extends AppError {}

function query400(error: EngineError): AppError {
  const options = { status: 400, code: 'validation' as const, title: error.message, errors: { sql: [error.message] } };
  return carriesDatabaseText(error) ? new DatabaseTextError(options) : new AppError(options);
}

/**
 * The engine names a rule by its place ('0.rules.1.column'); the reply names it by its path in the request, as every
 * other 400 does ('transformations.0.rules.1.column'), so that a form can put the message under the rule's field.
 */
function transformationErrors(error: EngineError): Record<string, string[]> {
  if (!error.errors) return { transformations: [error.message] };
  return Object.fromEntries(
    Object.entries(error.errors).map(([key, texts]) => [
      key.startsWith('transformations') ? key : `transformations.${key}`,
      texts,
    ]),
  );
}

export function engineErrorReply(error: EngineError, audience: ErrorAudience = 'author'): AppError {
  if (audience === 'caller' && carriesDatabaseText(error)) return dataSourceFailed();
  switch (error.code) {
    case 'INVALID_PARAMETERS':
      return validation(error.errors ?? { parameters: [error.message] });
    case 'INVALID_TRANSFORMATION':
      return validation(transformationErrors(error));
    case 'POOL_EXHAUSTED':
      return new AppError({ status: 503, code: 'unavailable', title: error.message, headers: { 'retry-after': '1' } });
    case 'TIMEOUT':
      return new AppError({ status: 504, code: 'upstream_timeout', title: error.message });
    case 'UNREACHABLE':
    case 'UPSTREAM_FAILED':
    case 'TOO_LARGE':
      return upstream();
    case 'TARGET_REFUSED':
      // SQL hosts name their field (host); the Web API guard's refusals are about the URL.
      return validation(error.errors ?? { url: [error.message] });
    case 'PRIVILEGED_ACCOUNT':
      // The connection's account may do more than read (connectors/account.ts): nothing ran.
      return validation({ connection: [error.message] });
    case 'ROW_CAP':
    case 'SYNTAX':
    case 'QUERY_FAILED':
    case 'WRITE_REFUSED':
    case 'MULTIPLE_STATEMENTS':
      return query400(error);
    case 'CANCELLED':
      return new AppError({ status: 499 as number, code: 'upstream', title: error.message });
  }
}

/** Runs `work`; an EngineError becomes its reply, anything else passes through untouched. */
export async function mapEngineErrors<T>(work: () => Promise<T>, audience: ErrorAudience = 'author'): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw replyError(error, audience);
  }
}

/**
 * An error as a caller who is not an author may read it: a reply quoting the database (or the engine error behind
 * it) becomes the bad-gateway reply; anything else is returned as it is.
 */
export function forCaller(error: unknown): unknown {
  if (error instanceof DatabaseTextError || (isEngineError(error) && carriesDatabaseText(error))) {
    return dataSourceFailed();
  }
  return error;
}

/** An engine error as its reply for `audience`; any other error as it is. */
export function replyError(error: unknown, audience: ErrorAudience = 'author'): unknown {
  if (!isEngineError(error)) return error;
  const reply = engineErrorReply(error, audience);
  // The engine error stays behind its reply (a connection test reads why the connection failed from it).
  reply.cause ??= error;
  return reply;
}

/** The engine error behind `error` (itself, or the cause of its reply), if any. */
export function engineErrorOf(error: unknown): EngineError | undefined {
  if (isEngineError(error)) return error;
  return error instanceof AppError && isEngineError(error.cause) ? error.cause : undefined;
}
