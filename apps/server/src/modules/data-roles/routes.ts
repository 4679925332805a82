import {
  getCollectionDataRoles,
  getUserDataRoles,
  getUserGroupDataRoles,
  putUserDataRoles,
  putUserGroupDataRoles,
} from '@datalab/contract/api/data-roles';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { requireCanManageUsers } from '../access/policy.ts';
import { loadCollection } from '../collections/service.ts';
import { groupRolesOnCollection, userRolesOnCollection } from './repository.ts';
import { changeRole, groupDataRoles, userDataRoles } from './service.ts';

export default async function dataRoleRoutes(app: FastifyInstance) {
  route(app, getUserDataRoles, async ({ user, params }) => {
    if (params.id !== user.id && !user.canManageUsers) throw forbidden();
    return userDataRoles(app.db, params.id);
  });

  route(app, putUserDataRoles, async ({ request, user, params, body }) => {
    await changeRole(app, request, user, { kind: 'user', id: params.id }, body);
    return userDataRoles(app.db, params.id);
  });

  route(app, getUserGroupDataRoles, async ({ user, params }) => {
    requireCanManageUsers(user);
    return groupDataRoles(app.db, params.id);
  });

  route(app, putUserGroupDataRoles, async ({ request, user, params, body }) => {
    await changeRole(app, request, user, { kind: 'group', id: params.id }, body);
    return groupDataRoles(app.db, params.id);
  });

  route(app, getCollectionDataRoles, async ({ user, params }) => {
    const { collection } = await loadCollection(app, user, params.id, 'manageRoles');
    const [users, groups] = await Promise.all([userRolesOnCollection(app.db, collection.id), groupRolesOnCollection(app.db, collection.id)]);
    return {
      collection: { uid: collection.uid, name: collection.name },
      users: users.map(({ role, ...u }) => ({ user: u, role })),
      groups: groups.map(({ role, ...g }) => ({ group: g, role })),
    };
  });
}
