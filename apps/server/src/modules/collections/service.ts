import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { nameConflict } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { authorizeCollection, collectionNotFound, type CollectionAction } from '../access/policy.ts';
import { audit } from '../audit/audit.ts';
import { presentCollectionDetail } from './presenter.ts';
import {
  countAssetsAndConnections,
  deleteCollectionRow,
  findCollectionByName,
  findCollectionByUid,
  findUserRef,
  insertCollection,
  updateCollectionRow,
} from './repository.ts';

export const newUid = () => randomBytes(9).toString('base64url');

const snapshot = (c: Collection) => ({ uid: c.uid, name: c.name, description: c.description });

/** Loads a collection and checks the caller may do `action` to it (404 when hidden, 403 when forbidden). */
export async function loadCollection(app: FastifyInstance, user: AuthUser, uid: string, action: CollectionAction) {
  const collection = await findCollectionByUid(app.db, uid);
  if (!collection) throw collectionNotFound(uid);
  const role = await authorizeCollection(app.access, user, collection, action);
  return { collection, role };
}

export async function collectionDetail(db: Database, user: AuthUser, collection: Collection, role: Awaited<ReturnType<typeof loadCollection>>['role']) {
  const [counts, createdBy] = await Promise.all([countAssetsAndConnections(db, collection.id), findUserRef(db, collection.created_by)]);
  return presentCollectionDetail(collection, user, role, counts, createdBy);
}

async function assertNameFree(db: Database, name: string, exceptId?: number) {
  const existing = await findCollectionByName(db, name);
  if (existing && existing.id !== exceptId) throw nameConflict('Collection', name.trim());
}

export async function createCollection(app: FastifyInstance, request: FastifyRequest, user: AuthUser, input: { name: string; description: string }) {
  const collection = await app.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, input.name);
    const at = new Date().toISOString();
    const created = await insertCollection(trx, { uid: newUid(), name: input.name, description: input.description, createdBy: user.id, at });
    await trx.insertInto('collection_user_roles').values({ collection_id: created.id, user_id: user.id, role: 'Owner', created_at: at }).execute();
    await app.access.bump(trx);
    await audit(app, request, user, { action: 'collection.create', target: { type: 'collection', id: created.uid, name: created.name }, after: { ...snapshot(created), owner: user.id } }, trx);
    return created;
  });
  return collectionDetail(app.db, user, collection, 'Owner');
}

export async function updateCollection(
  app: FastifyInstance,
  request: FastifyRequest,
  user: AuthUser,
  input: { uid: string; name: string; description: string },
) {
  const { collection, role } = await loadCollection(app, user, input.uid, 'update');
  const updated = await app.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, input.name, collection.id);
    const row = await updateCollectionRow(trx, collection.id, { name: input.name, description: input.description, at: new Date().toISOString() });
    await audit(app, request, user, { action: 'collection.update', target: { type: 'collection', id: row.uid, name: row.name }, before: snapshot(collection), after: snapshot(row) }, trx);
    return row;
  });
  return collectionDetail(app.db, user, updated, role);
}

export async function deleteCollection(app: FastifyInstance, request: FastifyRequest, user: AuthUser, uid: string) {
  const { collection } = await loadCollection(app, user, uid, 'delete');
  await app.db.transaction().execute(async (trx) => {
    const counts = await countAssetsAndConnections(trx, collection.id);
    // Roles, connections and data assets go with it (ON DELETE CASCADE); tokens scoped to it are
    // revoked by the same cascade once tokens exist.
    await deleteCollectionRow(trx, collection.id);
    await app.access.bump(trx);
    await audit(app, request, user, { action: 'collection.delete', target: { type: 'collection', id: collection.uid, name: collection.name }, before: { ...snapshot(collection), ...counts } }, trx);
  });
  return { uid: collection.uid, deleted: true as const };
}
