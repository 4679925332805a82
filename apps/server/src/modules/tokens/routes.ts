import {
  getAllPersonalAccessTokens,
  getAllTokens,
  getToken,
  getTokenDataRoles,
  getTokensByCollection,
  postToken,
  putTokenDataRoles,
  revokeToken as revokeCall,
} from '@datalab/contract/api/tokens';
import type { FastifyInstance } from 'fastify';
import { declaredCollection, route } from '../../lib/route.ts';
import {
  createToken,
  manageableTokens,
  personalTokens,
  revokeToken,
  setTokenDataRoles,
  tokenById,
  tokenDataRoles,
  tokensOfCollection,
} from './service.ts';

// The Token calls of SPEC §7. Reading answers what the caller may manage (service.ts decides, on the token itself);
// changing refuses Data Lab tokens altogether (`refusesTokens`): a token cannot mint, widen or revoke tokens.

export default async function tokenRoutes(app: FastifyInstance) {
  const settings = app.config.tokens;
  const change = { signedIn: true, refusesTokens: true } as const;

  route(
    app,
    getTokensByCollection,
    { collection: 'manageRoles', uid: { query: 'collectionUid' } },
    async ({ collection }) => tokensOfCollection(app.db, declaredCollection(collection)),
  );
  route(app, getAllTokens, { signedIn: true }, async ({ actor, query }) => manageableTokens(actor, query));
  route(app, getAllPersonalAccessTokens, { signedIn: true }, async ({ actor }) => personalTokens(actor));
  route(app, getToken, { signedIn: true }, async ({ actor, query }) => tokenById(actor, query.id));
  route(app, postToken, change, async ({ actor, body }) => createToken(actor, body, settings));
  route(app, getTokenDataRoles, { signedIn: true }, async ({ actor, params }) => tokenDataRoles(actor, params.id));
  route(app, putTokenDataRoles, change, async ({ actor, params, body }) =>
    setTokenDataRoles(actor, params.id, body.roles),
  );
  route(app, revokeCall, change, async ({ actor, params }) => revokeToken(actor, params.id));
}
