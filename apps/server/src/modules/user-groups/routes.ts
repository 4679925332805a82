import {
  addChildGroup,
  addGroupUser,
  autocompleteUserGroups,
  deleteUserGroup,
  getChildGroups,
  getGroupHierarchy,
  getGroupUsers,
  getUserGroup,
  getUserGroups,
  postUserGroup,
  removeChildGroup,
  removeGroupUser,
} from '@datalab/contract/api/user-groups';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { requireCanManageUsers } from '../access/policy.ts';
import { ownsAnyCollection } from '../users/service.ts';
import { childrenOf, membersOf } from './repository.ts';
import { changeMembership, changeNesting, createGroup, deleteGroup, groupDetail, groupOr404, hierarchy, listGroups, presentSummary } from './service.ts';

export default async function userGroupRoutes(app: FastifyInstance) {
  route(app, getUserGroups, async ({ user, query }) => {
    requireCanManageUsers(user);
    return listGroups(app.db, query);
  });

  route(app, postUserGroup, async ({ request, user, body }) => {
    requireCanManageUsers(user);
    return createGroup(app, request, user, body);
  });

  route(app, autocompleteUserGroups, async ({ user, query }) => {
    if (!user.canManageUsers && !(await ownsAnyCollection(app.db, user.id))) throw forbidden();
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return app.db
      .selectFrom('user_groups')
      .select(['id', 'name'])
      .where('name_key', 'like', sql<string>`${pattern} escape '\\'`)
      .orderBy('name_key')
      .limit(query.limit)
      .execute();
  });

  route(app, getUserGroup, async ({ user, params }) => {
    requireCanManageUsers(user);
    return groupDetail(app.db, params.id);
  });

  route(app, deleteUserGroup, async ({ request, user, params }) => {
    requireCanManageUsers(user);
    return deleteGroup(app, request, user, params.id);
  });

  route(app, getChildGroups, async ({ user, params }) => {
    requireCanManageUsers(user);
    await groupOr404(app.db, params.id);
    return (await childrenOf(app.db, params.id)).map(presentSummary);
  });

  route(app, getGroupUsers, async ({ user, params }) => {
    requireCanManageUsers(user);
    await groupOr404(app.db, params.id);
    return membersOf(app.db, params.id);
  });

  route(app, addGroupUser, async ({ request, user, params }) => {
    requireCanManageUsers(user);
    return changeMembership(app, request, user, params.id, params.userId, true);
  });

  route(app, removeGroupUser, async ({ request, user, params }) => {
    requireCanManageUsers(user);
    return changeMembership(app, request, user, params.id, params.userId, false);
  });

  route(app, addChildGroup, async ({ request, user, params }) => {
    requireCanManageUsers(user);
    return changeNesting(app, request, user, params.id, params.childId, true);
  });

  route(app, removeChildGroup, async ({ request, user, params }) => {
    requireCanManageUsers(user);
    return changeNesting(app, request, user, params.id, params.childId, false);
  });

  route(app, getGroupHierarchy, async ({ user, params }) => {
    requireCanManageUsers(user);
    return hierarchy(app.db, params.id);
  });
}
