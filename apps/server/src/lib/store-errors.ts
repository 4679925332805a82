import { unavailable } from './errors.ts';

// The metadata store's connection failures (PostgreSQL down, a network cut, a full pool of connections; the embedded
// SQLite file locked, read-only, gone or on a failing or full disk), told
// apart from every other failure so that the one error handler answers 503 — the service is unavailable, try
// later — rather than 500. Data sources' failures never get here: the engine turns them into its own errors (502).

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);

// pg's own texts for a connection that could not be made in time or was closed under a query.
const CONNECTION_TEXTS =
  /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error/i;

/**
 * SQLSTATE classes 08 (connection exception), 53 (insufficient resources: too many connections, out of memory or
 * disk) and 57P (the server is shutting down, crashed or not yet accepting connections).
 */
const UNAVAILABLE_STATES = /^(08|53|57P)/;

/**
 * The embedded store's (node:sqlite) primary result codes for a store that cannot serve now, whatever the query:
 * BUSY and LOCKED (another process holds the file), READONLY (a read-only file or file system), IOERR (the disk
 * failed), FULL (the disk is full), CANTOPEN (the file or its directory is gone) and PROTOCOL (a locking protocol
 * error). A query's own faults (a constraint, a syntax error) keep their codes and are not this.
 */
const SQLITE_UNAVAILABLE = new Set([5, 6, 8, 10, 13, 14, 15]);

function isSqliteUnavailable(error: Error): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // Extended result codes carry the primary one in their low byte (SQLITE_IOERR_WRITE is 10 | 3 << 8).
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && SQLITE_UNAVAILABLE.has(errcode & 0xff);
}

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (isSqliteUnavailable(error)) return true;
  if (CONNECTION_TEXTS.test(error.message)) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (error instanceof AggregateError) return error.errors.some((each) => isStoreUnavailable(each, depth + 1));
  return isStoreUnavailable(error.cause, depth + 1);
}

export const STORE_UNAVAILABLE_MESSAGE = 'The metadata store cannot be reached. Try again in a moment.';

export const storeUnavailable = () => {
  const error = unavailable(STORE_UNAVAILABLE_MESSAGE);
  error.headers['retry-after'] = '5';
  return error;
};
