import { getCurrentUser } from '@datalab/contract/api/account';
import type { FastifyInstance } from 'fastify';
import { route } from '../../routing/route.ts';
import { callerAccess, hasPermission } from '../access/policy.ts';
import { presentCurrentUser } from './presenter.ts';

export default async function accountRoutes(app: FastifyInstance) {
  route(app, getCurrentUser, { signedIn: true }, async ({ user }) => {
    const [canCreateCollections, access] = await Promise.all([
      hasPermission(app.access, user, 'canCreateCollections'),
      callerAccess(app.access, user),
    ]);
    return presentCurrentUser(user, {
      canCreateCollections,
      isDigitalLabPartner: access.isDigitalLabPartner,
      isDigitalLabOnly: access.isDigitalLabOnly,
    });
  });
}
