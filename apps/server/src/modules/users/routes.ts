import {
  autocompleteUsers,
  getUserGroupsOfUser,
  getUsers,
  putSystemPermissions,
  putUserActive,
} from '@datalab/contract/api/users';
import type { FastifyInstance } from 'fastify';
import { route } from '../../routing/route.ts';
import { groupsOfUser, listUsers, setActive, setSystemPermissions, suggestUsers } from './service.ts';

export default async function userRoutes(app: FastifyInstance) {
  route(app, getUsers, { permission: 'canManageUsers' }, async ({ query }) => listUsers(app.db, query));

  route(app, autocompleteUsers, { permission: 'canPickPeople' }, async ({ user, query }) =>
    suggestUsers(app.db, user, query.search, query.limit),
  );

  route(
    app,
    putSystemPermissions,
    { permission: 'canManageUsers', refusesTokens: true },
    async ({ actor, params, body }) => setSystemPermissions(actor, params.id, body.canManageUsers),
  );

  route(app, putUserActive, { permission: 'canManageUsers', refusesTokens: true }, async ({ actor, params, body }) =>
    setActive(actor, params.id, body.active),
  );

  route(app, getUserGroupsOfUser, { permission: 'canManageUsers', orSelf: { params: 'id' } }, async ({ params }) =>
    groupsOfUser(app.db, params.id),
  );
}
