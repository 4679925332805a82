import { isAbsolute, resolve } from 'node:path';
import { parseSqlHostList, type SqlHostList } from '@datalab/engine/connectors/sql-hosts';
import { weakKeyReason } from './lib/key-strength.ts';

// The rules loadConfig applies beyond each variable's own type: what production refuses, how the provider's audience
// must be set, and the variables with a little syntax of their own (SQL_HOST_ALLOWLIST, TRUST_PROXY).

/** The parsed variables these rules read (config.ts's schema gives them, defaults applied). */
export interface RuleEnv {
  NODE_ENV: 'development' | 'production' | 'test';
  SIGNING_KEY?: string | undefined;
  ENCRYPTION_KEY?: string | undefined;
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID: string;
  OIDC_AUDIENCE?: string | undefined;
  DEMO?: boolean | undefined;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Keys that are missing, weak or shared, and an issuer reached without TLS (production only). */
export function productionProblems(e: RuleEnv): string[] {
  const problems: string[] = [];
  const generate = "generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"";
  for (const name of ['SIGNING_KEY', 'ENCRYPTION_KEY'] as const) {
    const value = e[name];
    if (!value) {
      problems.push(`${name} is required in production (32 random bytes, base64)`);
      continue;
    }
    const reason = weakKeyReason(Buffer.from(value, 'base64'), value);
    if (reason) problems.push(`${name} ${reason}: set it to 32 random bytes, base64 (${generate})`);
  }
  if (e.SIGNING_KEY && e.SIGNING_KEY === e.ENCRYPTION_KEY) {
    problems.push('SIGNING_KEY and ENCRYPTION_KEY must differ: set each to its own 32 random bytes');
  }
  if (!e.OIDC_ISSUER) {
    problems.push('OIDC_ISSUER is required in production: the built-in sign-in is for the embedded demo only');
  } else if (new URL(e.OIDC_ISSUER).protocol !== 'https:' && !LOCAL_HOSTS.has(new URL(e.OIDC_ISSUER).hostname)) {
    problems.push('OIDC_ISSUER must be an https:// URL in production (tokens and keys must not travel in clear text)');
  }
  if (e.DEMO) problems.push('DEMO cannot be enabled in production: the demo accounts share a known password');
  return problems;
}

/** An external provider's access tokens must name the API, never the portal (that is the ID token's audience). */
export function audienceProblems(e: RuleEnv): string[] {
  if (e.OIDC_AUDIENCE !== undefined && e.OIDC_AUDIENCE === e.OIDC_CLIENT_ID) {
    return [
      'OIDC_AUDIENCE must not be the portal client id (OIDC_CLIENT_ID): ID tokens carry that audience. ' +
        'Set the API audience',
    ];
  }
  if (!e.OIDC_ISSUER) return [];
  const problems: string[] = [];
  if (!e.OIDC_AUDIENCE) {
    problems.push(
      'OIDC_AUDIENCE is required with OIDC_ISSUER: set it to the audience your provider puts in access tokens ' +
        'for the Data Lab API (see docs/configuration.md), not the portal client id',
    );
  }
  if (e.DEMO && e.NODE_ENV !== 'production') {
    problems.push('DEMO needs the built-in sign-in: unset OIDC_ISSUER to run the demo');
  }
  return problems;
}

/**
 * SQL_HOST_ALLOWLIST: comma-separated entries, each `*` (any public host), a host name or address with an optional
 * port (`db.internal`, `db.internal:5432`, `10.0.0.5`, `[fd00::5]:5432`) or a CIDR block (`10.0.0.0/8`). Unset:
 * public hosts only. The entries are reachable even when internal (engine `connectors/sql-hosts.ts`).
 */
export function parseSqlHostAllowlist(value: string | undefined): { list: SqlHostList; problems: string[] } {
  const { list, problems } = parseSqlHostList(value);
  return { list, problems: problems.map((problem) => `SQL_HOST_ALLOWLIST: ${problem}`) };
}

/** SQLITE_SHARED_PATHS: comma-separated absolute folders whose SQLite files every collection may open. */
export function parseSqliteSharedPaths(value: string | undefined): { paths: string[]; problems: string[] } {
  const paths: string[] = [];
  const problems: string[] = [];
  for (const entry of (value ?? '').split(',').map((part) => part.trim())) {
    if (!entry) continue;
    if (isAbsolute(entry) && !entry.includes('\0')) paths.push(resolve(entry));
    else problems.push(`SQLITE_SHARED_PATHS: '${entry}' is not an absolute folder path`);
  }
  return { paths, problems };
}

/** TRUST_PROXY: true/false, a hop count, or comma-separated proxy addresses (CIDR allowed). */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || /^(false|0|no)$/i.test(value)) return false;
  if (/^(true|yes)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
