import { getCurrentUser } from '@datalab/contract/api/account';
import type { FastifyInstance } from 'fastify';
import { route } from '../../routing/route.ts';
import { callerAccess, holdsPermission } from '../access/policy.ts';
import { presentCurrentUser } from './presenter.ts';

export default async function accountRoutes(app: FastifyInstance) {
  route(app, getCurrentUser, { signedIn: true }, async ({ user }) => {
    const access = await callerAccess(app.access, user);
    return presentCurrentUser(user, {
      canCreateCollections: holdsPermission(user, access, 'canCreateCollections'),
      isDigitalLabPartner: access.isDigitalLabPartner,
      isDigitalLabOnly: access.isDigitalLabOnly,
    });
  });
}
