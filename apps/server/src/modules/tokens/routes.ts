import {
  getAllPersonalAccessTokens,
  getAllTokens,
  getToken,
  getTokenDataRoles,
  getTokensByCollection,
  postToken,
  putTokenDataRoles,
  reportLeakedTokens,
  revokeToken as revokeCall,
  LEAK_REPORT_RECEIVED,
} from '@datalab/contract/api/tokens';
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { payloadTooLarge, rateLimited, validation } from '../../lib/errors.ts';
import { declaredCollection, route } from '../../routing/route.ts';
import { revokeLeakedTokens } from './leaks.service.ts';
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

// The Token calls of product §7. Reading answers what the caller may manage (service.ts decides, on the token itself);
// changing refuses Data Lab tokens altogether (`refusesTokens`): a token cannot mint, widen or revoke tokens.
// Besides the core calls (product §7): the public leak report (`POST /api/Token/Leaked`, leakReportRoutes below).

/** Leak reports one address may send per minute, and the largest body read. */
export const LEAK_REPORTS_PER_MINUTE = 10;
export const LEAK_REPORT_BODY_LIMIT = 16 * 1024;

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
  await app.register(leakReportRoutes);
}

/**
 * `POST /api/Token/Leaked`: public (a scanner has no account), so it is bounded before the body is read — a small
 * budget per address (429 with product §8's text past it) and a small body — and it answers 202 with one body whatever
 * the secrets were, so it tells nobody whether a string is a live token. A malformed body is refused without echoing
 * it (a parser's message quotes the text it choked on).
 */
async function leakReportRoutes(app: FastifyInstance) {
  const limiter = app.createRateLimiter({ keyPrefix: 'token-leaks', points: LEAK_REPORTS_PER_MINUTE, duration: 60 });
  app.addHook('onRequest', async (request) => {
    try {
      await limiter.consume(request.ip);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      throw refusal;
    }
    if (Number(request.headers['content-length'] ?? 0) > LEAK_REPORT_BODY_LIMIT) {
      throw payloadTooLarge(LEAK_REPORT_BODY_LIMIT);
    }
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: LEAK_REPORT_BODY_LIMIT },
    (request, body, done) =>
      parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), (error, parsed) =>
        error ? done(validation({ body: ['Malformed JSON'] })) : done(null, parsed),
      ),
  );

  route(app, reportLeakedTokens, { public: true }, async ({ request, body }) => {
    const revoked = await revokeLeakedTokens(app, body.secrets, { requestId: request.id, address: request.ip });
    // Operators see what happened (ids and hints only); the reporter gets the same reply either way.
    if (revoked.length > 0) request.log.warn({ revoked }, 'leak report: tokens revoked');
    else request.log.info({ entries: body.secrets.length }, 'leak report: no active token');
    return { message: LEAK_REPORT_RECEIVED } as const;
  });
}
