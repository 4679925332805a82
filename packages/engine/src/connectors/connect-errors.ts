import { EngineError } from '../errors.ts';

// Why a connection could not be made, told from the driver's error behind an EngineError (its `cause`): PostgreSQL
// (pg: SQLSTATE codes and Node's socket codes), MariaDB/MySQL (mysql2: ER_* codes), SQLite (node:sqlite: result
// codes) and HTTP (undici: socket and TLS codes). A connection test answers with it, so the person who typed the
// settings learns which one is wrong and what to do. The texts carry no password, no connection string, and
// nothing the server read from the database beyond the fact itself.

export const connectFailureReasons = [
  'refused',
  'hostNotFound',
  'timedOut',
  'authenticationFailed',
  'databaseMissing',
  'tlsRequired',
  'tlsFailed',
  'fileMissing',
  'unreachable',
] as const;
export type ConnectFailureReason = (typeof connectFailureReasons)[number];

export interface ConnectFailure {
  reason: ConnectFailureReason;
  /** What happened and what to do, for the person testing the connection. */
  message: string;
  /** The settings field the reason points at, for a form to show the message under it. */
  field: 'host' | 'port' | 'username' | 'password' | 'database' | 'ssl' | 'baseUrl';
  /** The driver's error code, for the application log (never its message). */
  code: string | undefined;
}

/** What the driver said, as far as it tells a reason: codes on the error, its causes and an AggregateError's parts. */
function codesOf(error: unknown, depth = 0): { code: string; message: string }[] {
  if (!(error instanceof Error) || depth > 4) return [];
  const own = error as { code?: unknown; errno?: unknown; errcode?: unknown };
  const code = typeof own.code === 'string' ? own.code : typeof own.errcode === 'number' ? String(own.errcode) : '';
  const found = [{ code, message: error.message }];
  if (error instanceof AggregateError) for (const part of error.errors) found.push(...codesOf(part, depth + 1));
  found.push(...codesOf(error.cause, depth + 1));
  return found;
}

const TLS_REQUIRED =
  /no pg_hba\.conf entry .* no encryption|SSL (connection )?is required|requires? (an )?SSL|secure transport|The server does not support SSL/i;

function reasonOf(code: string, message: string): ConnectFailureReason | undefined {
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'hostNotFound';
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timedOut';
  if (/timeout exceeded when trying to connect|connect ETIMEDOUT/i.test(message)) return 'timedOut';
  if (TLS_REQUIRED.test(message) || code === 'HANDSHAKE_NO_SSL_SUPPORT' || code === 'ER_SECURE_TRANSPORT_REQUIRED') {
    return 'tlsRequired';
  }
  if (
    code === '28P01' ||
    code === '28000' ||
    code === 'ER_ACCESS_DENIED_ERROR' ||
    code === 'ER_NOT_SUPPORTED_AUTH_MODE'
  )
    return 'authenticationFailed';
  if (code === 'ER_DBACCESS_DENIED_ERROR') return 'authenticationFailed';
  if (code === '3D000' || code === 'ER_BAD_DB_ERROR') return 'databaseMissing';
  if (/^(ERR_TLS_|ERR_SSL_|UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/.test(code))
    return 'tlsFailed';
  // node:sqlite: SQLITE_CANTOPEN (14) — the file or its directory does not exist or cannot be opened.
  if (code === '14' || /unable to open database file/i.test(message)) return 'fileMissing';
  return undefined;
}

/** What the connection reaches, as the texts name it. */
export type ConnectTarget = 'database' | 'web API';

function describe(reason: ConnectFailureReason, code: string | undefined, target: ConnectTarget): ConnectFailure {
  const web = target === 'web API';
  const text = (field: ConnectFailure['field'], message: string) =>
    ({ reason, message, field: web ? 'baseUrl' : field, code }) satisfies ConnectFailure;
  switch (reason) {
    case 'refused':
      return text(
        'port',
        'Connection refused: nothing accepts connections at this host and port. Check the port, and that the ' +
          `${target} server is running and listens on this address.`,
      );
    case 'hostNotFound':
      return text('host', 'Host not found: the name does not resolve. Check the host name for typos.');
    case 'timedOut':
      return text(
        'host',
        'Timed out: the host did not answer in time. Check the host and port, and that a firewall lets this ' +
          'server reach it.',
      );
    case 'authenticationFailed':
      return text(
        'password',
        'Authentication failed: the database refused this user name and password. Check both, and that the ' +
          'user may connect from this server.',
      );
    case 'databaseMissing':
      return text('database', 'Database missing: the server has no database of this name. Check its name.');
    case 'tlsRequired':
      return text(
        'ssl',
        'TLS required: the database server accepts encrypted connections only. Turn on TLS (SSL) for this ' +
          'connection.',
      );
    case 'tlsFailed':
      return text(
        'ssl',
        "TLS failed: the server's certificate could not be verified or the handshake failed. Check that the host " +
          'name matches the certificate and that the certificate is valid.',
      );
    case 'fileMissing':
      return text(
        'database',
        'File not found: the SQLite file does not exist or cannot be opened. Check the path (relative to the ' +
          "collection's own folder, or an absolute path in a shared folder).",
      );
    case 'unreachable':
      return text(
        'host',
        `The ${target} could not be reached. Check the host, the port and the network between this server and it.`,
      );
  }
}

/**
 * Why a connection could not be made, when `error` says so (an EngineError UNREACHABLE or TIMEOUT with the
 * driver's error as its cause, or a driver error itself); undefined for any other failure.
 */
export function describeConnectFailure(error: unknown, target: ConnectTarget = 'database'): ConnectFailure | undefined {
  if (error instanceof EngineError && !['UNREACHABLE', 'TIMEOUT', 'QUERY_FAILED'].includes(error.code)) {
    return undefined;
  }
  for (const { code, message } of codesOf(error)) {
    const reason = reasonOf(code, message);
    if (reason) return describe(reason, code || undefined, target);
  }
  if (error instanceof EngineError && error.code === 'UNREACHABLE') return describe('unreachable', undefined, target);
  return undefined;
}
