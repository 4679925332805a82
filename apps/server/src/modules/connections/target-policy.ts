import { lookup } from 'node:dns/promises';
import { hostname, networkInterfaces } from 'node:os';
import { isEngineError, SqlHostGuard, type ConnectorSettings, type Resolver } from '@datalab/engine';
import type { ErrorsMap } from '@datalab/contract/errors';
import type { Config } from '../../config.ts';

// Where SQL connections may point. The host: public addresses only, unless an administrator allows it
// (SQL_HOST_ALLOWLIST), judged by the engine's SqlHostGuard on the addresses the name resolves to — when a
// connection is saved or tested, and again by every socket at connect time (the guard is in the connector's
// settings, so a run cannot reach what the list refuses, whatever DNS answers by then). And no PostgreSQL
// connection may open the metadata store's own database, whose tables hold every collection's sealed secrets, users
// and sign-in state: an Owner would otherwise read them through the preview. Checked when a connection is saved or
// tested (names resolved through DNS too) and before every run (as written, no lookup).

export interface NetworkTarget {
  kind: 'postgres' | 'mysql' | 'sqlite';
  host?: string | null | undefined;
  port?: number | null | undefined;
  database?: string | null | undefined;
}

interface StoreTarget {
  host: string;
  port: number;
  database: string;
}

export interface TargetPolicy {
  /** Judges hosts and opens every PostgreSQL and MariaDB socket (SQL_HOST_ALLOWLIST). */
  guard: SqlHostGuard;
  /** The metadata store when it is PostgreSQL. */
  store: StoreTarget | undefined;
  /** Names and addresses of this machine (a store on localhost is also reached through them). */
  local: ReadonlySet<string>;
}

const DEFAULT_PORTS = { postgres: 5432, mysql: 3306 } as const;
const DNS_TIMEOUT_MS = 2000;

export const STORE_DATABASE_REFUSED = "This is Data Lab's own metadata database: a connection cannot point at it";

/** Lower case, no IPv6 brackets, no trailing dot of a fully qualified name. */
const normalHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/(?<=.)\.$/, '');

/** The store's address from DATABASE_URL, with libpq's defaults (localhost, 5432, the user's name). */
function storeTarget(database: Config['database']): StoreTarget | undefined {
  if (database.kind !== 'postgres') return undefined;
  const url = new URL(database.url);
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname);
  const user = decodeURIComponent(url.username) || 'postgres';
  return {
    host: normalHost(host || 'localhost'),
    port: url.port ? Number(url.port) : DEFAULT_PORTS.postgres,
    database: decodeURIComponent(url.pathname.slice(1)) || user,
  };
}

function localNames(): Set<string> {
  const names = new Set(['localhost', normalHost(hostname())]);
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) names.add(normalHost(entry.address));
  }
  return names;
}

/** The policy of this configuration; `resolve` replaces DNS (test builds). */
export function targetPolicy(config: Pick<Config, 'database' | 'sqlHostAllowlist'>, resolve?: Resolver): TargetPolicy {
  return {
    guard: new SqlHostGuard(config.sqlHostAllowlist, resolve),
    store: storeTarget(config.database),
    local: localNames(),
  };
}

/** Loopback and any-address forms, a Unix socket folder, or a name or address of this machine. */
function isLocal(policy: TargetPolicy, host: string): boolean {
  return (
    host === '' ||
    host.startsWith('/') ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    /^(::1?|0:0:0:0:0:0:0:[01]|::ffff:127\.\d+\.\d+\.\d+|0\.0\.0\.0)$/.test(host) ||
    policy.local.has(host)
  );
}

function sameHost(policy: TargetPolicy, a: string, b: string): boolean {
  return a === b || (isLocal(policy, a) && isLocal(policy, b));
}

interface Resolved {
  kind: 'postgres' | 'mysql';
  host: string;
  port: number;
  database: string;
}

function resolvedTarget(target: NetworkTarget): Resolved | undefined {
  if (target.kind === 'sqlite') return undefined;
  return {
    kind: target.kind,
    host: normalHost(target.host ?? ''),
    port: target.port ?? DEFAULT_PORTS[target.kind],
    database: target.database ?? '',
  };
}

const isStoreDatabase = (policy: TargetPolicy, t: Resolved, hostMatches: boolean) =>
  policy.store !== undefined &&
  t.kind === 'postgres' &&
  hostMatches &&
  t.port === policy.store.port &&
  t.database === policy.store.database;

/** Why a connection may not open this database (the errors map of a 400), judged on the host as written. */
export function targetRefusal(policy: TargetPolicy, target: NetworkTarget): ErrorsMap | undefined {
  const t = resolvedTarget(target);
  if (!t) return undefined;
  const store = policy.store;
  if (store && isStoreDatabase(policy, t, sameHost(policy, t.host, store.host))) {
    return { database: [STORE_DATABASE_REFUSED] };
  }
  return undefined;
}

async function addresses(host: string): Promise<string[]> {
  if (host === '' || host.startsWith('/')) return [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<[]>((resolve) => {
    timer = setTimeout(() => resolve([]), DNS_TIMEOUT_MS);
  });
  try {
    const found = lookup(host, { all: true }).then(
      (list) => list.map((entry) => normalHost(entry.address)),
      () => [],
    );
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The same judgement when a connection is saved or tested, with names resolved: a name that leads to the metadata
 * store's server (another name of it, or of this machine when the store is local) is refused as well.
 */
export async function targetRefusalResolved(
  policy: TargetPolicy,
  target: NetworkTarget,
): Promise<ErrorsMap | undefined> {
  const t = resolvedTarget(target);
  if (t) {
    try {
      await policy.guard.target(t.host, t.port);
    } catch (error) {
      // A name that does not resolve is saved (it may exist where the database is); its runs fail as unreachable.
      if (isEngineError(error) && error.code === 'TARGET_REFUSED') return error.errors ?? { host: [error.message] };
    }
  }
  const written = targetRefusal(policy, target);
  const store = policy.store;
  if (written || !t || !store || !isStoreDatabase(policy, t, true)) return written;
  const [mine, theirs] = await Promise.all([addresses(t.host), addresses(store.host)]);
  const storeIsLocal = isLocal(policy, store.host) || theirs.some((address) => isLocal(policy, address));
  const reachesStore = mine.some((address) => theirs.includes(address) || (storeIsLocal && isLocal(policy, address)));
  return reachesStore ? { database: [STORE_DATABASE_REFUSED] } : undefined;
}

/** The target of the engine's settings for a connection (SQLite has none). */
export function targetOf(config: ConnectorSettings): NetworkTarget {
  if (config.kind === 'sqlite') return { kind: 'sqlite' };
  const { host, port, database } = config.settings;
  return { kind: config.kind, host, port, database };
}
