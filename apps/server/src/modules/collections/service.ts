import { randomBytes } from 'node:crypto';
import type { DataRole } from '@datalab/contract/api/data-roles';
import type { SortDirection } from '@datalab/contract/paging';
import { roleOfRank } from '@datalab/contract/api/data-roles';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { AppError, nameConflict } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { callerAccess, effectiveRole } from '../access/policy.ts';
import { deleteJobsOf, removeLeftovers, type DeletionStores } from '../dependents/leftovers.service.ts';
import { revokeCollectionTokens } from '../tokens/revocation.service.ts';
import { presentCollectionDetail, presentCollectionSummary } from './presenter.ts';
import {
  assetIdsOfCollection,
  countAssetsAndConnections,
  deleteCollectionRow,
  findCollectionByDataAsset,
  findCollectionByName,
  findCollectionByUid,
  findOwners,
  findUserRef,
  insertCollection,
  insertOwnerRole,
  listCollectionsForUser,
  updateCollectionRow,
} from './repository.ts';

// Collections: the rules. Who may reach a collection is declared on each route and decided by the
// policy before these run; what is left here is naming, ownership at creation, and the audit.

/** For a change written in another module's transaction (a definition's apply). */
export { updateCollectionRow } from './repository.ts';

export const newUid = () => randomBytes(9).toString('base64url');

/** For route declarations: the collection a uid names, or the one holding a data asset (id or uid). */
export const findCollection = (db: Database, uid: string) => findCollectionByUid(db, uid);
export const findCollectionOfAsset = (db: Database, idOrUid: string) => findCollectionByDataAsset(db, idOrUid);

const snapshot = (c: Collection) => ({
  uid: c.uid,
  name: c.name,
  description: c.description,
  mcpEnabled: c.mcp_enabled === 1,
});

/** A name clash with a collection the caller cannot see must not confirm that it exists (docs/decisions.md). */
const NAME_UNAVAILABLE = 'This name is not available; choose another';
const nameUnavailable = () =>
  new AppError({ status: 409, code: 'conflict', title: NAME_UNAVAILABLE, errors: { name: [NAME_UNAVAILABLE] } });

export async function collectionDetail(db: Database, user: AuthUser, collection: Collection, role: DataRole | null) {
  const [counts, createdBy, owners] = await Promise.all([
    countAssetsAndConnections(db, collection.id),
    findUserRef(db, collection.created_by),
    findOwners(db, collection.id),
  ]);
  return presentCollectionDetail(collection, user, role, counts, createdBy, owners);
}

export async function listCollections(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  query: {
    search?: string | undefined;
    page: number;
    pageSize: number;
    sortBy: 'name' | 'createdAt' | 'updatedAt';
    sortDirection: SortDirection;
  },
) {
  const { ranks } = await callerAccess(actor.access, actor.user);
  const { rows, total } = await listCollectionsForUser(actor.db, {
    ranks,
    seeAll: actor.user.canManageUsers,
    search: query.search,
    sortBy: query.sortBy,
    sortDirection: query.sortDirection,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((row) => presentCollectionSummary(row, roleOfRank(ranks.get(row.id)), row.asset_count)),
    totalCount: total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function assertNameFree(
  actor: Pick<Actor, 'access' | 'user'>,
  db: Database,
  name: string,
  exceptId?: number,
) {
  const existing = await findCollectionByName(db, name);
  if (!existing || existing.id === exceptId) return;
  const visible = actor.user.canManageUsers || (await effectiveRole(actor.access, actor.user, existing.id)) !== null;
  throw visible ? nameConflict('Collection', name.trim()) : nameUnavailable();
}

export async function createCollection(actor: Actor, input: { name: string; description: string }) {
  const collection = await changeAccess(actor, async (trx) => {
    await assertNameFree(actor, trx, input.name);
    const at = new Date().toISOString();
    const created = await insertCollection(trx, {
      uid: newUid(),
      name: input.name,
      description: input.description,
      createdBy: actor.user.id,
      at,
    });
    await insertOwnerRole(trx, created.id, actor.user.id, at);
    const after = { ...snapshot(created), owner: actor.user.id };
    await actor.audit(
      { action: 'collection.create', target: { type: 'collection', id: created.uid, name: created.name }, after },
      trx,
    );
    return created;
  });
  return collectionDetail(actor.db, actor.user, collection, 'Owner');
}

export async function updateCollection(
  actor: Actor,
  collection: Collection,
  role: DataRole | null,
  input: { name: string; description: string; mcpEnabled?: boolean | undefined },
) {
  const updated = await actor.db.transaction().execute(async (trx) => {
    await assertNameFree(actor, trx, input.name, collection.id);
    const row = await updateCollectionRow(trx, collection.id, {
      name: input.name,
      description: input.description,
      mcpEnabled: input.mcpEnabled,
      at: new Date().toISOString(),
    });
    const target = { type: 'collection', id: row.uid, name: row.name };
    await actor.audit({ action: 'collection.update', target, before: snapshot(collection), after: snapshot(row) }, trx);
    return row;
  });
  return collectionDetail(actor.db, actor.user, updated, role);
}

/** Deletes a collection with everything in it; its assets' download jobs, files and cached results go too. */
export async function deleteCollection(actor: Actor, collection: Collection, stores: DeletionStores) {
  const assetIds = (await assetIdsOfCollection(actor.db, collection.id)).map((row) => row.id);
  const jobs = await changeAccess(actor, async (trx) => {
    const counts = await countAssetsAndConnections(trx, collection.id);
    // Its tokens are revoked first, in this transaction; roles, connections and data assets go with the row
    // (ON DELETE CASCADE), as do personal access tokens' roles on it.
    const revokedTokens = await revokeCollectionTokens(trx, collection.id, actor.user.id);
    await deleteCollectionRow(trx, collection.id);
    const removed = await deleteJobsOf(trx, { collectionId: collection.id });
    const target = { type: 'collection', id: collection.uid, name: collection.name };
    const before = { ...snapshot(collection), ...counts };
    const after = { revokedTokens, downloadsRemoved: removed.length };
    await actor.audit({ action: 'collection.delete', target, before, after }, trx);
    return removed;
  });
  await removeLeftovers(stores, { jobs, dataSourceIds: assetIds });
  return { uid: collection.uid, deleted: true as const };
}
