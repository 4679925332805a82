import {
  getCollectionDataRoles,
  getUserDataRoles,
  getUserGroupDataRoles,
  putUserDataRoles,
  putUserGroupDataRoles,
} from '@datalab/contract/api/data-roles';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route } from '../../routing/route.ts';
import { changeRole, collectionDataRoles, groupDataRoles, userDataRoles, visibleCollections } from './service.ts';

// Who may ask is declared per route. Changing a role needs manageRoles on the collection, checked
// before the user or group is looked up, so a 404 never tells an outsider which ids exist. Changes refuse Data Lab
// tokens (refusesTokens).

export default async function dataRoleRoutes(app: FastifyInstance) {
  route(app, getUserDataRoles, { permission: 'canManageUsers', orSelf: { params: 'id' } }, async ({ params }) =>
    userDataRoles(app.db, params.id),
  );

  route(
    app,
    putUserDataRoles,
    { collection: 'manageRoles', uid: { body: 'collectionUid' }, refusesTokens: true },
    async ({ actor, collection, params, body }) => {
      await changeRole(actor, declaredCollection(collection), { kind: 'user', id: params.id }, body.role);
      return userDataRoles(app.db, params.id, await visibleCollections(actor, params.id));
    },
  );

  route(app, getUserGroupDataRoles, { permission: 'canManageUsers' }, async ({ params }) =>
    groupDataRoles(app.db, params.id),
  );

  route(
    app,
    putUserGroupDataRoles,
    { collection: 'manageRoles', uid: { body: 'collectionUid' }, refusesTokens: true },
    async ({ actor, collection, params, body }) => {
      await changeRole(actor, declaredCollection(collection), { kind: 'group', id: params.id }, body.role);
      return groupDataRoles(app.db, params.id);
    },
  );

  route(app, getCollectionDataRoles, { collection: 'manageRoles', uid: { params: 'id' } }, async ({ collection }) =>
    collectionDataRoles(app.db, declaredCollection(collection)),
  );
}
