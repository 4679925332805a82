import { roleRank } from '@datalab/contract/api/data-roles';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '../../db/database.ts';
import { rateLimited, unauthenticated } from '../../lib/errors.ts';
import type { AuthUser, TokenCaller } from '../../lib/auth-user.ts';
import { LastUsed } from './last-used.ts';
import { findTokenForAuthentication, rolesOfToken, type AuthenticationRow } from './repository.ts';
import { parseSecret, secretMatches } from './secret.ts';

// Who a Data Lab token speaks for (`Authorization: Bearer dlp_…` / `dlc_…`), checked at every request:
// - the token, its owner and the access version come in one round trip (as a JWT's user does), so a revocation,
//   an expiry or the owner's deactivation holds at the next call on every instance;
// - a personal access token's roles are kept per access version (a role change bumps it), and policy.ts narrows
//   them by the owner's current effective roles on every check;
// - unknown, malformed, expired and revoked tokens all get the same 401 after the same hash-and-compare; a flood
//   of failures from one address turns into 429s there, while valid tokens from it still pass.
// On the embedded store (one process, exclusive lock) the token rows are also cached per local access version:
// every token change (creation, roles, revocation) and every account change bumps it.

/** Failed token checks one address may make per minute before its failures answer 429. */
export const TOKEN_FAILURES_PER_MINUTE = 60;
const ENTRIES_MAX = 10_000;

/** Values loaded once per access version; a newer version's values serve older requests too. */
class PerVersion<K, V> {
  #version = -1;
  #entries = new Map<K, Promise<V>>();

  get(version: number, key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (version > this.#version) {
      this.#version = version;
      this.#entries = new Map();
    }
    let value = this.#entries.get(key);
    if (!value) {
      if (this.#entries.size >= ENTRIES_MAX) this.#entries.clear();
      const entries = this.#entries;
      value = load();
      entries.set(key, value);
      value.then(
        (loaded) => {
          if (!keep(loaded)) entries.delete(key);
        },
        () => entries.delete(key),
      );
    }
    return value;
  }
}

export interface TokenAuthenticatorOptions {
  /** The access version when this process alone writes the store (embedded SQLite); undefined otherwise. */
  localVersion: () => number | undefined;
  /** Counts failed token checks per address (plugins/rate-limits.ts). */
  failures: RateLimiterAbstract;
  log: FastifyBaseLogger;
}

export class TokenAuthenticator {
  readonly #db: Database;
  readonly #options: TokenAuthenticatorOptions;
  readonly #rows = new PerVersion<string, AuthenticationRow | undefined>();
  readonly #roles = new PerVersion<number, ReadonlyMap<number, number>>();
  readonly lastUsed: LastUsed;

  constructor(db: Database, options: TokenAuthenticatorOptions) {
    this.#db = db;
    this.#options = options;
    this.lastUsed = new LastUsed(db, options.log);
  }

  /** The caller behind a credential that has a Data Lab token's prefix; 401 (or 429 in a flood) otherwise. */
  async authenticate(credential: string, request: FastifyRequest): Promise<AuthUser> {
    const parsed = parseSecret(credential);
    const local = this.#options.localVersion();
    const row = !parsed
      ? undefined
      : local === undefined
        ? await findTokenForAuthentication(this.#db, parsed.lookupId)
        : await this.#rows.get(
            local,
            parsed.lookupId,
            () => findTokenForAuthentication(this.#db, parsed.lookupId),
            (found) => found !== undefined,
          );
    // Always one hash and one comparison, whatever failed before.
    const matches = secretMatches(credential, row?.secret_hash);
    if (!row || !matches || row.kind !== parsed?.kind || !isUsable(row)) return this.#refuse(request);
    const version = local ?? Number(row.access_version ?? 0);
    const caller = await this.#caller(row, version);
    if (!caller) return this.#refuse(request);
    this.lastUsed.touch(row.id, request.ip);
    return caller.kind === 'personal'
      ? {
          id: row.owner_user_id ?? 0,
          name: row.owner_name ?? '',
          username: row.owner_username,
          email: row.owner_email,
          canManageUsers: false,
          accessVersion: version,
          token: caller,
        }
      : {
          // A collection token acts for its collection, not for a person: user id 0, which no user has.
          id: 0,
          name: row.name,
          username: null,
          email: null,
          canManageUsers: false,
          accessVersion: version,
          token: caller,
        };
  }

  async #caller(row: AuthenticationRow, version: number): Promise<TokenCaller | undefined> {
    if (row.kind === 'collection') {
      if (row.collection_id === null) return undefined;
      const ranks = new Map([[row.collection_id, roleRank.Reader]]);
      return { id: row.id, kind: 'collection', ranks, collectionId: row.collection_id };
    }
    const ranks = await this.#roles.get(version, row.id, async () => {
      const roles = await rolesOfToken(this.#db, row.id);
      return new Map(roles.map((r) => [r.collection_id, roleRank[r.role]]));
    });
    return { id: row.id, kind: 'personal', ranks, collectionId: null };
  }

  /** The same 401 for every failure; 429 once an address has failed too often this minute. */
  async #refuse(request: FastifyRequest): Promise<never> {
    try {
      await this.#options.failures.consume(request.ip);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      throw refusal;
    }
    throw unauthenticated(true);
  }
}

function isUsable(row: AuthenticationRow): boolean {
  if (row.revoked_at !== null) return false;
  if (row.expires_at !== null && Date.parse(row.expires_at) <= Date.now()) return false;
  return row.kind === 'collection' || Boolean(row.owner_active);
}
