import { autocompleteUsers, getUsers, putSystemPermissions } from '@datalab/contract/api/users';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { requireCanManageUsers } from '../access/policy.ts';
import { listUsers, ownsAnyCollection, setSystemPermissions, suggestUsers } from './service.ts';

export default async function userRoutes(app: FastifyInstance) {
  route(app, getUsers, async ({ user, query }) => {
    requireCanManageUsers(user);
    return listUsers(app.db, query);
  });

  route(app, autocompleteUsers, async ({ user, query }) => {
    if (!user.canManageUsers && !(await ownsAnyCollection(app.db, user.id))) throw forbidden();
    return suggestUsers(app.db, query.search, query.limit);
  });

  route(app, putSystemPermissions, async ({ request, user, params, body }) => {
    requireCanManageUsers(user);
    return setSystemPermissions(app, request, user, params.id, body.canManageUsers);
  });
}
