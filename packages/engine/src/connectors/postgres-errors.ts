import { EngineError, abortError } from '../errors.ts';

// PostgreSQL and socket errors → EngineError. Messages about the query text (syntax, unknown relation) are kept so
// the author can fix the query; anything about the connection becomes the generic UNREACHABLE text.

const networkCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EAI_AGAIN',
]);

export function mapPostgresError(error: unknown, signal?: AbortSignal): EngineError {
  if (error instanceof EngineError) return error;
  if (signal?.aborted) return abortError(signal);
  const e = error as { code?: string; message?: string };
  const code = e.code ?? '';
  const message = e.message ?? '';
  if (code === '57014') return new EngineError('TIMEOUT', undefined, { cause: error });
  if (code === '25006') return new EngineError('WRITE_REFUSED', undefined, { cause: error });
  if (code === '42601') return new EngineError('SYNTAX', `The query has a syntax error: ${message}`, { cause: error });
  if (
    networkCodes.has(code) ||
    /^(08|28|3D|53|57P)/.test(code) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(message)
  ) {
    return new EngineError('UNREACHABLE', undefined, { cause: error });
  }
  if (/^(42|22|2B|0A|21|39|P0)/.test(code))
    return new EngineError('QUERY_FAILED', `The query failed: ${message}`, { cause: error });
  return new EngineError('QUERY_FAILED', undefined, { cause: error });
}
