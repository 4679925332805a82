import { EngineError, abortError } from '../errors.ts';
import type { ColumnType } from '../types.ts';

// MySQL/MariaDB column types → the common vocabulary, and driver errors → EngineError.

const columnTypeByCode: Record<number, ColumnType> = {
  0: 'decimal', // DECIMAL
  246: 'decimal', // NEWDECIMAL
  4: 'decimal', // FLOAT
  5: 'decimal', // DOUBLE
  1: 'integer',
  2: 'integer',
  3: 'integer',
  8: 'integer',
  9: 'integer',
  13: 'integer', // YEAR
  10: 'date',
  14: 'date',
  7: 'datetime', // TIMESTAMP
  12: 'datetime',
  245: 'json',
  16: 'binary', // BIT
  255: 'binary', // GEOMETRY
};

const blobCodes = new Set([249, 250, 251, 252, 253, 254]);
const BINARY_CHARSET = 63;

export function mysqlColumnType(columnType: number, characterSet: number): ColumnType {
  if (blobCodes.has(columnType)) return characterSet === BINARY_CHARSET ? 'binary' : 'string';
  return columnTypeByCode[columnType] ?? 'string';
}

/** Values as the engine reports them: DATETIME 'YYYY-MM-DD HH:MM:SS' → 'YYYY-MM-DDTHH:MM:SS'. */
export function normaliseMysqlValue(type: ColumnType, value: unknown): unknown {
  if (type === 'datetime' && typeof value === 'string') return value.replace(' ', 'T');
  if (type === 'json' && typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

const networkCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_HOST_NOT_PRIVILEGED',
]);

export function mapMysqlError(error: unknown, signal?: AbortSignal): EngineError {
  if (error instanceof EngineError) return error;
  if (signal?.aborted) return abortError(signal);
  const e = error as { code?: string; errno?: number; message?: string; sqlMessage?: string };
  const code = e.code ?? '';
  const errno = e.errno ?? 0;
  // 1969: MariaDB max_statement_time; 3024: MySQL max_execution_time.
  if (errno === 1969 || errno === 3024) return new EngineError('TIMEOUT', undefined, { cause: error });
  if (errno === 1792) return new EngineError('WRITE_REFUSED', undefined, { cause: error });
  if (errno === 1064)
    return new EngineError('SYNTAX', `The query has a syntax error: ${e.sqlMessage ?? ''}`, { cause: error });
  if (networkCodes.has(code) || code === 'ETIMEDOUT' || /connect/i.test(code)) {
    return new EngineError('UNREACHABLE', undefined, { cause: error });
  }
  if (e.sqlMessage) return new EngineError('QUERY_FAILED', `The query failed: ${e.sqlMessage}`, { cause: error });
  return new EngineError('QUERY_FAILED', undefined, { cause: error });
}
