import { TOKEN_PATTERN_SOURCE } from '@datalab/contract/api/tokens';
import type { Database } from '../../db/database.ts';
import type { AppLog } from '../application-logs/writer.service.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { changeAccess } from '../access/change-access.service.ts';
import { findTokenForAuthentication, markRevoked } from './repository.ts';
import { hintOf, parseSecret, secretMatches } from './secret.ts';

// Leak reports (`POST /api/Token/Leaked`, docs/decisions.md): anyone — a secret scanner, a colleague, the holder —
// may post secrets they found. Each secret of the Data Lab format is checked exactly as authentication checks it
// (checksum, lookup id, SHA-256 compared in constant time, the same work when nothing matches), and every one that is
// an active token is revoked by nobody, for the reason 'leaked', in one transaction with an audit record and a
// warning in the application log. Neither record, nor anything this returns, holds the secret: the token's id and
// hint (its prefix and first 6 characters) name it.

export interface LeakReportDeps {
  db: Database;
  access: AccessModelCache;
  appLog: AppLog;
}

export interface LeakReportOrigin {
  requestId: string;
  /** The reporter's address, as the request's trusted proxies give it. */
  address: string;
}

/** A token a report revoked, named without its secret. */
export interface RevokedLeak {
  id: number;
  hint: string;
}

interface LiveMatch {
  id: number;
  name: string;
  kind: 'personal' | 'collection';
  hint: string;
  ownerUserId: number | null;
  collectionId: number | null;
}

/** Everything of the secret format in the report's entries, each once (a pasted line holds its secret). */
export function secretsIn(entries: readonly string[]): string[] {
  const found = new Set<string>();
  const pattern = new RegExp(TOKEN_PATTERN_SOURCE, 'g');
  for (const entry of entries) for (const [secret] of entry.matchAll(pattern)) found.add(secret);
  return [...found];
}

/** The active token a secret is, if it is one; the same hash-and-compare whatever it is. */
async function liveTokenOf(db: Database, secret: string, now: number): Promise<LiveMatch | undefined> {
  const parsed = parseSecret(secret);
  const row = parsed ? await findTokenForAuthentication(db, parsed.lookupId) : undefined;
  const matches = secretMatches(secret, row?.secret_hash);
  if (!parsed || !row || !matches || row.kind !== parsed.kind) return undefined;
  if (row.revoked_at !== null || (row.expires_at !== null && Date.parse(row.expires_at) <= now)) return undefined;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    hint: hintOf(row.kind, parsed.lookupId),
    ownerUserId: row.owner_user_id,
    collectionId: row.collection_id,
  };
}

/**
 * Revokes every active token among the reported entries; answers the ones revoked (for the operators' log line —
 * the reporter is never told). A token revoked meanwhile by someone else is left as it is.
 */
export async function revokeLeakedTokens(
  deps: LeakReportDeps,
  entries: readonly string[],
  origin: LeakReportOrigin,
): Promise<RevokedLeak[]> {
  const now = Date.now();
  const live: LiveMatch[] = [];
  for (const secret of secretsIn(entries)) {
    const match = await liveTokenOf(deps.db, secret, now);
    if (match && !live.some((known) => known.id === match.id)) live.push(match);
  }
  if (live.length === 0) return [];
  // changeAccess bumps the access version: the embedded store drops its cached token rows, so the revocation holds
  // from the next call, as every other revocation does.
  return changeAccess(deps, async (trx) => {
    const at = new Date().toISOString();
    const revoked: RevokedLeak[] = [];
    for (const token of live) {
      const changed = await markRevoked(trx, token.id, null, at, 'leaked');
      if (Number(changed.numUpdatedRows) === 0) continue;
      await recordLeak(deps.appLog, trx, token, origin);
      revoked.push({ id: token.id, hint: token.hint });
    }
    return revoked;
  });
}

/** The audit record (who: nobody) and the administrators' warning, in the revoking transaction. */
async function recordLeak(appLog: AppLog, trx: Database, token: LiveMatch, origin: LeakReportOrigin) {
  const target = { type: 'token', id: token.id, name: token.name };
  await appLog.write(
    {
      level: 'info',
      category: 'audit',
      message: `token.leaked token ${token.name}`,
      requestId: origin.requestId,
      userId: null,
      details: {
        actor: null,
        action: 'token.leaked',
        target,
        before: null,
        after: { status: 'Revoked', reason: 'leaked', hint: token.hint, reportedFrom: origin.address },
      },
    },
    trx,
  );
  await appLog.write(
    {
      level: 'warn',
      category: 'security',
      message: `Token ${token.hint} was reported as leaked and is revoked`,
      requestId: origin.requestId,
      userId: null,
      details: {
        tokenId: token.id,
        hint: token.hint,
        kind: token.kind,
        ownerUserId: token.ownerUserId,
        collectionId: token.collectionId,
        reportedFrom: origin.address,
      },
    },
    trx,
  );
}
