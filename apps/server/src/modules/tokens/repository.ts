import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { TokenStatus } from '@datalab/contract/api/tokens';
import type { Database } from '../../db/database.ts';
import { inIdList } from '../../db/id-list.ts';
import { pageWithTotal, windowTotal } from '../../db/page-total.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { DB, RoleName, TokenKind } from '../../db/schema.ts';

// Queries of Data Lab tokens. No rules here: who may see or change a token is decided in service.ts.

/** A token row with the names its presentation needs. */
function tokenRows(db: Database) {
  return (
    db
      .selectFrom('tokens')
      .leftJoin('users as owner', 'owner.id', 'tokens.owner_user_id')
      .leftJoin('users as creator', 'creator.id', 'tokens.created_by')
      .leftJoin('users as revoker', 'revoker.id', 'tokens.revoked_by')
      .leftJoin('collections', 'collections.id', 'tokens.collection_id')
      // Everything but the secret's hash, which only authentication reads.
      .select([
        'tokens.id',
        'tokens.kind',
        'tokens.name',
        'tokens.owner_user_id',
        'tokens.collection_id',
        'tokens.created_by',
        'tokens.lookup_id',
        'tokens.created_at',
        'tokens.expires_at',
        'tokens.revoked_at',
        'tokens.revoked_by',
        'tokens.revoked_reason',
        'tokens.last_used_at',
        'tokens.last_used_address',
      ])
      .select([
        'owner.name as owner_name',
        'owner.username as owner_username',
        'creator.name as creator_name',
        'creator.username as creator_username',
        'revoker.name as revoker_name',
        'revoker.username as revoker_username',
        'collections.uid as collection_uid',
        'collections.name as collection_name',
      ])
  );
}

type RowsQuery = ReturnType<typeof tokenRows>;
export type TokenListRow = Awaited<ReturnType<RowsQuery['executeTakeFirstOrThrow']>>;

export function findTokenById(db: Database, id: number): Promise<TokenListRow | undefined> {
  return tokenRows(db).where('tokens.id', '=', id).executeTakeFirst();
}

/** Status as a condition on the row, at `now` (ISO text compares in time order). */
function withStatus<O>(query: SelectQueryBuilder<DB, 'tokens', O>, status: TokenStatus | undefined, now: string) {
  if (status === 'Revoked') return query.where('tokens.revoked_at', 'is not', null);
  if (status === 'Expired') {
    return query.where('tokens.revoked_at', 'is', null).where('tokens.expires_at', '<=', now);
  }
  if (status === 'Active') {
    return query
      .where('tokens.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('tokens.expires_at', 'is', null), eb('tokens.expires_at', '>', now)]));
  }
  return query;
}

export interface TokenFilter {
  /** Every token (administrators); otherwise the three below. */
  all: boolean;
  /** Personal access tokens of this owner; only the one `tokenId` names when given. */
  personal?: { ownerId: number; tokenId?: number | undefined };
  /** Collection tokens this user made for collections since deleted. */
  orphansOf?: number;
  /** Collection tokens of these collections. */
  collectionIds?: readonly number[];
  kind?: TokenKind | undefined;
  status?: TokenStatus | undefined;
}

export async function listTokens(
  db: Database,
  filter: TokenFilter,
  page: { limit: number; offset: number },
  now: string,
): Promise<{ rows: TokenListRow[]; total: number }> {
  const filtered = <O>(query: SelectQueryBuilder<DB, 'tokens', O>) => {
    let out = withStatus(query, filter.status, now);
    if (filter.kind) out = out.where('tokens.kind', '=', filter.kind);
    if (filter.all) return out;
    const { personal, orphansOf, collectionIds = [] } = filter;
    return out.where((eb) =>
      eb.or([
        ...(personal === undefined
          ? []
          : [
              eb.and([
                eb('tokens.kind', '=', 'personal'),
                eb('tokens.owner_user_id', '=', personal.ownerId),
                ...(personal.tokenId === undefined ? [] : [eb('tokens.id', '=', personal.tokenId)]),
              ]),
            ]),
        ...(orphansOf === undefined
          ? []
          : [
              eb.and([
                eb('tokens.kind', '=', 'collection'),
                eb('tokens.collection_id', 'is', null),
                eb('tokens.created_by', '=', orphansOf),
              ]),
            ]),
        ...(collectionIds.length === 0
          ? []
          : [eb.and([eb('tokens.kind', '=', 'collection'), inIdList(db, 'tokens.collection_id', collectionIds)])]),
        sql<SqlBool>`1 = 0`,
      ]),
    );
  };
  const rows = await filtered(tokenRows(db))
    .select(windowTotal())
    .orderBy('tokens.created_at', 'desc')
    .orderBy('tokens.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return pageWithTotal(rows, async () => {
    const counted = await filtered(db.selectFrom('tokens'))
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return counted.count;
  });
}

/** A user's personal access tokens; only the one `tokenId` names when given. */
export function personalTokensOf(db: Database, userId: number, tokenId?: number) {
  let query = tokenRows(db).where('tokens.kind', '=', 'personal').where('tokens.owner_user_id', '=', userId);
  if (tokenId !== undefined) query = query.where('tokens.id', '=', tokenId);
  return query.orderBy('tokens.created_at', 'desc').orderBy('tokens.id', 'desc').execute();
}

export function collectionTokensOf(db: Database, collectionId: number) {
  return tokenRows(db)
    .where('tokens.kind', '=', 'collection')
    .where('tokens.collection_id', '=', collectionId)
    .orderBy('tokens.created_at', 'desc')
    .orderBy('tokens.id', 'desc')
    .execute();
}

/** The roles of personal access tokens, with their collections' uid and name. */
export function rolesOfTokens(db: Database, tokenIds: readonly number[]) {
  if (tokenIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('token_data_roles')
    .innerJoin('collections', 'collections.id', 'token_data_roles.collection_id')
    .select([
      'token_data_roles.token_id',
      'token_data_roles.collection_id',
      'token_data_roles.role',
      'collections.uid',
      'collections.name',
    ])
    .where(inIdList(db, 'token_data_roles.token_id', tokenIds))
    .orderBy('collections.name')
    .orderBy('collections.id')
    .execute();
}

export function findCollectionsByUid(db: Database, uids: readonly string[]) {
  if (uids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('collections')
    .select(['id', 'uid', 'name'])
    .where('uid', 'in', [...uids])
    .execute();
}

/** A token not revoked with this name (case-insensitively) for the same owner or collection. */
export function findLiveTokenByName(
  db: Database,
  owner: { ownerUserId: number } | { collectionId: number },
  nameKey: string,
) {
  let query = db.selectFrom('tokens').select('id').where('name_key', '=', nameKey).where('revoked_at', 'is', null);
  query =
    'ownerUserId' in owner
      ? query.where('kind', '=', 'personal').where('owner_user_id', '=', owner.ownerUserId)
      : query.where('kind', '=', 'collection').where('collection_id', '=', owner.collectionId);
  return query.executeTakeFirst();
}

export async function insertToken(
  db: Database,
  row: {
    kind: TokenKind;
    name: string;
    ownerUserId: number | null;
    collectionId: number | null;
    createdBy: number;
    lookupId: string;
    secretHash: string;
    createdAt: string;
    expiresAt: string | null;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('tokens')
    .values({
      kind: row.kind,
      name: row.name,
      name_key: row.name.trim().toLowerCase(),
      owner_user_id: row.ownerUserId,
      collection_id: row.collectionId,
      created_by: row.createdBy,
      lookup_id: row.lookupId,
      secret_hash: row.secretHash,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function replaceTokenRoles(
  db: Database,
  tokenId: number,
  roles: readonly { collectionId: number; role: RoleName }[],
  at: string,
) {
  await db.deleteFrom('token_data_roles').where('token_id', '=', tokenId).execute();
  if (roles.length === 0) return;
  await db
    .insertInto('token_data_roles')
    .values(roles.map((r) => ({ token_id: tokenId, collection_id: r.collectionId, role: r.role, created_at: at })))
    .execute();
}

export type RevokedReason = NonNullable<DB['tokens']['revoked_reason']>;

/** Revokes a live token: by a person (`by`), or by nobody (null: a leak report). */
export function markRevoked(db: Database, tokenId: number, by: number | null, at: string, reason: RevokedReason) {
  return db
    .updateTable('tokens')
    .set({ revoked_at: at, revoked_by: by, revoked_reason: reason })
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes every live token of a collection; answers their ids. */
export async function markCollectionTokensRevoked(db: Database, collectionId: number, by: number, at: string) {
  const rows = await db
    .updateTable('tokens')
    .set({ revoked_at: at, revoked_by: by, revoked_reason: 'collectionDeleted' })
    .where('collection_id', '=', collectionId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

const tokenForAuthentication = preparedQuery(
  (db, lookupId: string) =>
    db
      .selectFrom('tokens')
      .leftJoin('users', 'users.id', 'tokens.owner_user_id')
      .select([
        'tokens.id',
        'tokens.kind',
        'tokens.name',
        'tokens.secret_hash',
        'tokens.expires_at',
        'tokens.revoked_at',
        'tokens.owner_user_id',
        'tokens.collection_id',
        'users.name as owner_name',
        'users.username as owner_username',
        'users.email as owner_email',
        'users.is_active as owner_active',
      ])
      .select((eb) =>
        eb
          .selectFrom('access_version')
          .select('version')
          .where('access_version.id', '=', sql.lit(1))
          .as('access_version'),
      )
      .where('tokens.lookup_id', '=', lookupId),
  ['sample'] as [string],
);

/** Read on every request a token authenticates: the token, its owner and the access version, in one round trip. */
export async function findTokenForAuthentication(db: Database, lookupId: string) {
  const [row] = await tokenForAuthentication(db, lookupId);
  return row;
}
export type AuthenticationRow = NonNullable<Awaited<ReturnType<typeof findTokenForAuthentication>>>;

/** A personal access token's roles: collection id → role. */
export function rolesOfToken(db: Database, tokenId: number) {
  return db.selectFrom('token_data_roles').select(['collection_id', 'role']).where('token_id', '=', tokenId).execute();
}

export function recordLastUsed(db: Database, tokenId: number, at: string, address: string | null) {
  return db
    .updateTable('tokens')
    .set({ last_used_at: at, last_used_address: address })
    .where('id', '=', tokenId)
    .execute();
}
