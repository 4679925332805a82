import {
  addChildGroup,
  addGroupUser,
  autocompleteUserGroups,
  deleteUserGroup,
  getChildGroups,
  getGroupHierarchy,
  getGroupUsers,
  getNestingCandidates,
  getUserGroup,
  getUserGroups,
  postUserGroup,
  putUserGroup,
  removeChildGroup,
  removeGroupUser,
} from '@datalab/contract/api/user-groups';
import type { FastifyInstance } from 'fastify';
import { route } from '../../routing/route.ts';
import { candidatesFor, changeNesting, hierarchy } from './nesting-service.ts';
import { presentSummary } from './presenter.ts';
import { childrenOf, membersOf, searchGroupRefs } from './service.ts';
import {
  changeMembership,
  createGroup,
  deleteGroup,
  groupDetail,
  groupOr404,
  listGroups,
  renameGroup,
} from './service.ts';

const admin = { permission: 'canManageUsers' } as const;
/** Changes to groups, memberships and nesting: administrators, never through a Data Lab token. */
const adminChange = { permission: 'canManageUsers', refusesTokens: true } as const;

export default async function userGroupRoutes(app: FastifyInstance) {
  route(app, getUserGroups, admin, async ({ query }) => listGroups(app.db, query));
  route(app, postUserGroup, adminChange, async ({ actor, body }) => createGroup(actor, body));
  route(app, autocompleteUserGroups, { permission: 'canPickPeople' }, async ({ query }) =>
    searchGroupRefs(app.db, query.search, query.limit),
  );
  route(app, getUserGroup, admin, async ({ params }) => groupDetail(app.db, params.id));
  route(app, putUserGroup, adminChange, async ({ actor, params, body }) => renameGroup(actor, params.id, body));
  route(app, deleteUserGroup, adminChange, async ({ actor, params }) => deleteGroup(actor, params.id));

  route(app, getChildGroups, admin, async ({ params }) => {
    await groupOr404(app.db, params.id);
    return (await childrenOf(app.db, params.id)).map(presentSummary);
  });

  route(app, getGroupUsers, admin, async ({ params }) => {
    await groupOr404(app.db, params.id);
    return membersOf(app.db, params.id);
  });

  route(app, addGroupUser, adminChange, async ({ actor, params }) =>
    changeMembership(actor, params.id, params.userId, true),
  );
  route(app, removeGroupUser, adminChange, async ({ actor, params }) =>
    changeMembership(actor, params.id, params.userId, false),
  );
  route(app, addChildGroup, adminChange, async ({ actor, params }) =>
    changeNesting(actor, params.id, params.childId, true),
  );
  route(app, removeChildGroup, adminChange, async ({ actor, params }) =>
    changeNesting(actor, params.id, params.childId, false),
  );
  route(app, getNestingCandidates, admin, async ({ params, query }) =>
    candidatesFor(app.db, params.id, query.search, query.limit),
  );
  route(app, getGroupHierarchy, admin, async ({ params }) => hierarchy(app.db, params.id));
}
