import type { AllowedSqlHost, ParsedEnv } from './config.ts';
import { weakKeyReason } from './lib/key-strength.ts';

// The rules loadConfig applies beyond each variable's own type: what production refuses, how the provider's audience
// must be set, and the variables with a little syntax of their own (SQL_HOST_ALLOWLIST, TRUST_PROXY).

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Keys that are missing, weak or shared, and an issuer reached without TLS (production only). */
export function productionProblems(e: ParsedEnv): string[] {
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
export function audienceProblems(e: ParsedEnv): string[] {
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
 * SQL_HOST_ALLOWLIST: comma-separated `host` or `host:port` entries; an IPv6 address with a port is written in
 * brackets (`[::1]:5432`). Hosts are compared as written, case-insensitively: a name and its address are two entries.
 */
export function parseSqlHostAllowlist(value: string | undefined): { hosts: AllowedSqlHost[]; problems: string[] } {
  const hosts: AllowedSqlHost[] = [];
  const problems: string[] = [];
  for (const entry of (value ?? '').split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const match = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(entry) ?? /^([^\s:/[\]@]+)(?::(\d+))?$/.exec(entry);
    const bareIpv6 = /^[0-9a-f]*:[0-9a-f:.]*:[0-9a-f:.]*$/i.test(entry) ? entry : undefined;
    const host = match?.[1] ?? bareIpv6;
    const port = match?.[2] === undefined ? undefined : Number(match[2]);
    if (!host || (port !== undefined && (port < 1 || port > 65535))) {
      problems.push(`SQL_HOST_ALLOWLIST: '${entry}' is not a host or host:port`);
      continue;
    }
    hosts.push({ host: host.toLowerCase().replace(/(?<=.)\.$/, ''), ...(port === undefined ? {} : { port }) });
  }
  return { hosts, problems };
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
