import { isEngineError, type EngineError } from '@datalab/engine';
import { AppError, upstream, validation } from './errors.ts';

// The one mapping from the engine's error codes to HTTP replies, shared by the management calls (preview,
// parameter data, test connection) and the calling layer (/data/v1). The engine's messages are safe by
// construction (no password, no connection string); SYNTAX and QUERY_FAILED keep the database's text about the
// query, which helps the author and says nothing about the server.

function query400(error: EngineError): AppError {
  return new AppError({ status: 400, code: 'validation', title: error.message, errors: { sql: [error.message] } });
}

export function engineErrorReply(error: EngineError): AppError {
  switch (error.code) {
    case 'INVALID_PARAMETERS':
    case 'INVALID_TRANSFORMATION':
      return validation(
        error.errors ?? { [error.code === 'INVALID_PARAMETERS' ? 'parameters' : 'rules']: [error.message] },
      );
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
export async function mapEngineErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw replyError(error);
  }
}

/** An engine error as its reply (SPEC §8); any other error as it is. */
export function replyError(error: unknown): unknown {
  return isEngineError(error) ? engineErrorReply(error) : error;
}
