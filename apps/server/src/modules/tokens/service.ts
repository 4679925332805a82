import { roleOfRank, roleRank, type DataRole } from '@datalab/contract/api/data-roles';
import type {
  CreatedToken,
  Token,
  TokenDataRoles,
  TokenKind,
  TokenStatus,
  createToken as createTokenBody,
  tokenRoleInput,
} from '@datalab/contract/api/tokens';
import type { ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { forbidden, invalid, nameConflict, notFound, validation } from '../../lib/errors.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { callerAccess, collectionNotFound, decide, effectiveRole, personalTokenRanks } from '../access/policy.ts';
import { presentToken, statusOf } from './presenter.ts';
import {
  collectionTokensOf,
  findCollectionsByUid,
  findLiveTokenByName,
  findTokenById,
  insertToken,
  listTokens,
  markRevoked,
  personalTokensOf,
  replaceTokenRoles,
  rolesOfTokens,
  type TokenListRow,
} from './repository.ts';
import { generateSecret } from './secret.ts';

// Data Lab tokens: the rules. A personal access token is its owner's to create, change and revoke; its roles are at
// most the creator's own effective roles (and policy.ts narrows them again at every use). A collection token is made
// by an Owner of the collection; its Owners and administrators see and revoke it. Administrators (canManageUsers)
// see and revoke every token but change no one's roles. Anything else answers 404, as if the token did not exist.
// A caller behind a Data Lab token sees no more than its narrowing: a personal access token sees itself (its own
// status, expiry and roles) and the collection tokens of collections it is Owner of (narrowed), never its owner's
// other personal tokens nor the tokens of deleted collections; a collection token sees none.
// Every creation, role change and revocation is audited (never the secret) and bumps the access version, in one
// transaction: on the embedded store that is what drops the cached token rows.

export interface TokenSettings {
  defaultDays: number;
  maxDays: number;
  allowNoExpiry: boolean;
}

const TOKEN = 'Token';
const DAY_MS = 86_400_000;

type RoleInput = z.output<typeof tokenRoleInput>;
type CreateInput = z.output<typeof createTokenBody>;

async function present(db: Database, rows: readonly TokenListRow[]): Promise<Token[]> {
  const personal = rows.filter((row) => row.kind === 'personal').map((row) => row.id);
  const roles = await rolesOfTokens(db, personal);
  const now = Date.now();
  return rows.map((row) => presentToken(row, roles, now));
}

async function presentOne(db: Database, id: number): Promise<Token> {
  const row = await findTokenById(db, id);
  if (!row) throw notFound(TOKEN, id);
  const [token] = await present(db, [row]);
  if (!token) throw notFound(TOKEN, id);
  return token;
}

/**
 * Its owner, or the Owners of its collection (its creator once the collection is deleted), and administrators; the
 * caller behind a collection token never.
 */
async function mayManage(actor: Pick<Actor, 'access' | 'user'>, row: TokenListRow): Promise<boolean> {
  if (actor.user.canManageUsers) return true;
  const token = actor.user.token;
  if (token?.kind === 'collection') return false;
  if (row.kind === 'personal') return row.owner_user_id === actor.user.id && (!token || row.id === token.id);
  if (row.collection_id === null) return !token && row.created_by === actor.user.id;
  return (await effectiveRole(actor.access, actor.user, row.collection_id)) === 'Owner';
}

/** The token when the caller may manage it; 404 otherwise (its existence is not revealed). */
async function manageableToken(actor: Pick<Actor, 'db' | 'access' | 'user'>, id: number): Promise<TokenListRow> {
  const row = await findTokenById(actor.db, id);
  if (!row || !(await mayManage(actor, row))) throw notFound(TOKEN, id);
  return row;
}

export function tokensOfCollection(db: Database, collection: Collection): Promise<Token[]> {
  return collectionTokensOf(db, collection.id).then((rows) => present(db, rows));
}

/** The caller's personal access tokens; a personal access token itself only, a collection token none. */
export async function personalTokens(actor: Pick<Actor, 'db' | 'user'>): Promise<Token[]> {
  const token = actor.user.token;
  if (token?.kind === 'collection') return [];
  return present(actor.db, await personalTokensOf(actor.db, actor.user.id, token?.id));
}

export async function manageableTokens(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  query: { page: number; pageSize: number; kind?: TokenKind | undefined; status?: TokenStatus | undefined },
) {
  const { ranks } = await callerAccess(actor.access, actor.user);
  const owned = [...ranks.entries()].filter(([, rank]) => rank === roleRank.Owner).map(([id]) => id);
  const token = actor.user.token;
  const { rows, total } = await listTokens(
    actor.db,
    {
      all: actor.user.canManageUsers,
      ...(token?.kind !== 'collection' && { personal: { ownerId: actor.user.id, tokenId: token?.id } }),
      ...(!token && { orphansOf: actor.user.id }),
      collectionIds: owned,
      kind: query.kind,
      status: query.status,
    },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
    new Date().toISOString(),
  );
  return { items: await present(actor.db, rows), totalCount: total, page: query.page, pageSize: query.pageSize };
}

export async function tokenById(actor: Pick<Actor, 'db' | 'access' | 'user'>, id: number): Promise<Token> {
  await manageableToken(actor, id);
  return presentOne(actor.db, id);
}

/**
 * When a new token stops working: 00:00 UTC on `expiresOn`, which must come after today and at most `maxDays` after
 * it; the default when absent; never (null) only where allowed.
 */
export function expiryOf(
  expiresOn: string | null | undefined,
  settings: TokenSettings,
  now = Date.now(),
): string | null {
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`);
  if (expiresOn === undefined) return new Date(today + settings.defaultDays * DAY_MS).toISOString();
  if (expiresOn === null) {
    if (!settings.allowNoExpiry) throw invalid('expiresOn', messages.required('Expiry'));
    return null;
  }
  const day = Date.parse(`${expiresOn}T00:00:00.000Z`);
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== expiresOn) {
    throw invalid('expiresOn', 'Expiry must be a date (YYYY-MM-DD)');
  }
  if (day <= today) throw invalid('expiresOn', 'Expiry must be a date after today');
  if (day > today + settings.maxDays * DAY_MS) {
    throw invalid('expiresOn', `Expiry must be at most ${settings.maxDays} days from today`);
  }
  return new Date(day).toISOString();
}

interface CheckedRole {
  collectionId: number;
  uid: string;
  role: DataRole;
}

/**
 * Roles a caller may put on a personal access token: each on a collection they can see, at most their own current
 * effective role there; a collection once. Refusals are a 400 naming each entry (product §5 templates where one fits).
 */
async function checkRoles(actor: Pick<Actor, 'db' | 'access' | 'user'>, roles: readonly RoleInput[]) {
  const found = new Map(
    (await findCollectionsByUid(actor.db, [...new Set(roles.map((r) => r.collectionUid))])).map((c) => [c.uid, c]),
  );
  const { ranks } = await callerAccess(actor.access, actor.user);
  const errors: ErrorsMap = {};
  const seen = new Set<string>();
  const checked: CheckedRole[] = [];
  for (const [index, { collectionUid, role }] of roles.entries()) {
    const collection = found.get(collectionUid);
    const rank = collection ? ranks.get(collection.id) : undefined;
    if (!collection || (rank === undefined && !actor.user.canManageUsers)) {
      errors[`roles.${index}.collectionUid`] = [messages.doesNotExist('Collection', collectionUid)];
    } else if (seen.has(collectionUid)) {
      errors[`roles.${index}.collectionUid`] = ['Each collection may appear once'];
    } else if (rank === undefined) {
      errors[`roles.${index}.role`] = ['You hold no data role on this collection'];
    } else if (roleRank[role] > rank) {
      errors[`roles.${index}.role`] = [`Role ${role} is above your own role on this collection (${roleOfRank(rank)})`];
    } else {
      checked.push({ collectionId: collection.id, uid: collectionUid, role });
    }
    seen.add(collectionUid);
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
  return checked;
}

/** The collection of a new collection token: hidden → 404, visible but not its Owner → 403. */
async function collectionForToken(actor: Pick<Actor, 'db' | 'access' | 'user'>, uid: string) {
  const [collection] = await findCollectionsByUid(actor.db, [uid]);
  if (!collection) throw collectionNotFound(uid);
  const decision = decide(actor.user, await effectiveRole(actor.access, actor.user, collection.id), 'update');
  if (decision === 'hide') throw collectionNotFound(uid);
  if (decision === 'forbid') throw forbidden();
  return collection;
}

export async function createToken(actor: Actor, body: CreateInput, settings: TokenSettings): Promise<CreatedToken> {
  const expiresAt = expiryOf(body.expiresOn, settings);
  const isPersonal = body.kind === 'personal';
  const collection = isPersonal ? undefined : await collectionForToken(actor, body.collectionUid ?? '');
  const roles = isPersonal ? await checkRoles(actor, body.roles ?? []) : [];
  const secret = generateSecret(body.kind);
  const id = await changeAccess(actor, async (trx) => {
    const owner = collection ? { collectionId: collection.id } : { ownerUserId: actor.user.id };
    if (await findLiveTokenByName(trx, owner, body.name.toLowerCase())) throw nameConflict(TOKEN, body.name);
    const at = new Date().toISOString();
    const created = await insertToken(trx, {
      kind: body.kind,
      name: body.name,
      ownerUserId: collection ? null : actor.user.id,
      collectionId: collection?.id ?? null,
      createdBy: actor.user.id,
      lookupId: secret.lookupId,
      secretHash: secret.hash,
      createdAt: at,
      expiresAt,
    });
    await replaceTokenRoles(trx, created, roles, at);
    const after = {
      kind: body.kind,
      hint: secret.hint,
      collection: collection?.uid ?? null,
      roles: roles.map((r) => ({ collection: r.uid, role: r.role })),
      expiresAt,
    };
    await actor.audit({ action: 'token.create', target: { type: 'token', id: created, name: body.name }, after }, trx);
    return created;
  });
  return { ...(await presentOne(actor.db, id)), secret: secret.secret };
}

export async function tokenDataRoles(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  id: number,
): Promise<TokenDataRoles> {
  const row = await manageableToken(actor, id);
  const token = await presentOne(actor.db, id);
  const active = token.status === 'Active';
  const summary = { id: token.id, name: token.name, kind: token.kind, status: token.status };
  if (row.kind === 'collection' || row.owner_user_id === null) {
    return { token: summary, roles: token.roles.map((r) => ({ ...r, effectiveRole: active ? r.role : null })) };
  }
  const ids = new Map(
    (
      await findCollectionsByUid(
        actor.db,
        token.roles.map((r) => r.collection.uid),
      )
    ).map((c) => [c.uid, c.id]),
  );
  const own = new Map(token.roles.map((r) => [ids.get(r.collection.uid) ?? 0, roleRank[r.role]]));
  const worth = await personalTokenRanks(actor.access, row.owner_user_id, actor.user.accessVersion, own);
  return {
    token: summary,
    roles: token.roles.map((r) => ({
      ...r,
      effectiveRole: active ? roleOfRank(worth.get(ids.get(r.collection.uid) ?? 0)) : null,
    })),
  };
}

/** Replaces a personal access token's roles: its owner only, each role at most their own (the same rule as at creation). */
export async function setTokenDataRoles(
  actor: Actor,
  id: number,
  roles: readonly RoleInput[],
): Promise<TokenDataRoles> {
  const row = await manageableToken(actor, id);
  if (row.kind === 'collection') throw invalid('roles', 'A collection token is always Reader on its collection');
  if (row.owner_user_id !== actor.user.id) throw forbidden();
  if (statusOf(row) === 'Revoked') throw invalid('roles', 'A revoked token has no roles to change');
  const checked = await checkRoles(actor, roles);
  const before = (await presentOne(actor.db, id)).roles.map((r) => ({ collection: r.collection.uid, role: r.role }));
  await changeAccess(actor, async (trx) => {
    await replaceTokenRoles(trx, id, checked, new Date().toISOString());
    const after = checked.map((r) => ({ collection: r.uid, role: r.role }));
    await actor.audit({ action: 'token.roles', target: { type: 'token', id, name: row.name }, before, after }, trx);
  });
  return tokenDataRoles(actor, id);
}

/** Revokes at once, on every instance (the access version moves with it); a second revocation changes nothing. */
export async function revokeToken(actor: Actor, id: number): Promise<Token> {
  const row = await manageableToken(actor, id);
  if (row.revoked_at === null) {
    await changeAccess(actor, async (trx) => {
      const changed = await markRevoked(trx, id, actor.user.id, new Date().toISOString(), 'revoked');
      if (Number(changed.numUpdatedRows) === 0) return;
      await actor.audit({ action: 'token.revoke', target: { type: 'token', id, name: row.name } }, trx);
    });
  }
  return presentOne(actor.db, id);
}
