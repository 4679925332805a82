import { getCurrentUser } from '@datalab/contract/api/account';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route.ts';
import { hasPermission } from '../access/policy.ts';
import { presentCurrentUser } from './presenter.ts';

export default async function accountRoutes(app: FastifyInstance) {
  route(app, getCurrentUser, { signedIn: true }, async ({ user }) =>
    presentCurrentUser(user, await hasPermission(app.access, user, 'canCreateCollections')),
  );
}
