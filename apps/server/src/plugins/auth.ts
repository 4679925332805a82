import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { JWTPayload } from 'jose';
import { VerifiedTokens } from '../lib/verified-tokens.ts';
import { AppError, unauthenticated, unavailable } from '../lib/errors.ts';
import { createTokenVerifier, IdentityProviderUnavailable, IssuerMismatch, type TokenVerifier } from '../lib/jwt.ts';
import { provisionUser, type Identity } from '../modules/users/provisioning.ts';
import { AccessModelCache, readAccessVersion } from '../modules/access/access-model.ts';
import { findActiveUserById } from '../modules/users/service.ts';
import { LastSeen } from '../modules/users/last-seen.ts';
import { TOKEN_FAILURES_PER_MINUTE, TokenAuthenticator } from '../modules/tokens/authentication.service.ts';
import { looksLikeDataLabToken, TOKEN_IN_TEXT } from '../modules/tokens/secret.ts';
import { BUILT_IN_ISSUER_KEY, type AuthUser } from '../lib/auth-user.ts';

// Authentication: who is calling. Every /api route runs `app.authenticate` first (code-style habit 4);
// what the caller may do is decided afterwards, against the object itself.

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<AuthUser>;
    /** Checks Data Lab tokens; `lastUsed.settled()` waits for its pending "last used" writes. */
    tokenAuthentication: TokenAuthenticator;
    /** Who holds which role where, cached per access version. */
    access: AccessModelCache;
  }
}

/**
 * Verified tokens, so a token's signature is checked once, not on every request. A token is
 * immutable and carries its own expiry, which bounds each entry; the user's row is still read on
 * every request, so a deactivation or a permission change holds at once.
 */
const VERIFIED_TOKENS_MAX = 10_000;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
  return match?.[1];
}

const API_OR_DATA = /^\/(api|data)\//;
const TOKEN_QUERY_KEYS = new Set(['access_token', 'token']);

/** The query key holding a token (by its name or its format), if any: tokens go in the Authorization header. */
function tokenInQuery(request: FastifyRequest): string | undefined {
  if (request.url.indexOf('?') === -1 || !API_OR_DATA.test(request.url)) return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  for (const key in query) {
    if (TOKEN_QUERY_KEYS.has(key.toLowerCase())) return key;
    const value = query[key];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string' && TOKEN_IN_TEXT.test(item)) return key;
    }
  }
  return undefined;
}

const TOKEN_IN_URL_MESSAGE = 'Send the token in the Authorization header, not in the URL';

const tokenInUrl = (key: string) =>
  new AppError({
    status: 400,
    code: 'validation',
    title: TOKEN_IN_URL_MESSAGE,
    errors: { [key]: [TOKEN_IN_URL_MESSAGE] },
  });

/**
 * 400 for a token in the URL's query, which ends up in logs and histories; app.ts checks every request before any
 * route's own hooks (authentication among them).
 */
export function refuseTokenInUrl(request: FastifyRequest): AppError | undefined {
  const key = tokenInQuery(request);
  return key === undefined ? undefined : tokenInUrl(key);
}

function identityFrom(payload: JWTPayload, issuerKey: string, usernameClaim: string): Identity {
  const claim = (name: string) => {
    const value = payload[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return {
    issuer: issuerKey,
    subject: String(payload.sub),
    username: claim(usernameClaim) ?? claim('preferred_username'),
    email: claim('email'),
    name: claim('name'),
  };
}

/**
 * An external provider's discovery document is read at start: one that names another issuer stops
 * the start (tokens would never match, or the document is not the provider's). A provider that is
 * down does not: requests answer 503 until it is back.
 */
async function checkProviderAtStart(app: FastifyInstance, verify: TokenVerifier) {
  try {
    await verify.prepare();
  } catch (error) {
    if (error instanceof IssuerMismatch) throw error;
    app.log.warn({ err: error }, 'the identity provider is not reachable yet; sign-in answers 503 until it is');
  }
}

export default fp(
  async (app: FastifyInstance, options: { localJwks?: { keys: Record<string, unknown>[] } }) => {
    const { oidc } = app.config;
    const verify: TokenVerifier = createTokenVerifier({
      issuer: oidc.issuer,
      audience: oidc.audience,
      clientId: oidc.clientId,
      requireAccessTokenType: oidc.requireAccessTokenType,
      ...(options.localJwks ? { localJwks: options.localJwks } : {}),
    });
    if (!oidc.builtIn) await checkProviderAtStart(app, verify);
    const issuerKey = oidc.builtIn ? BUILT_IN_ISSUER_KEY : oidc.issuer;

    const verified = new VerifiedTokens(VERIFIED_TOKENS_MAX);

    /** The user id behind a token: from the cache, or by verifying it and provisioning its user. */
    const userIdFor = async (token: string, request: FastifyRequest): Promise<number | undefined> => {
      const cached = verified.get(token);
      if (cached !== undefined) return cached;
      const payload = await verify(token).catch((error: unknown) => {
        if (!(error instanceof IdentityProviderUnavailable)) throw error;
        request.log.warn({ err: error }, 'identity provider unreachable');
        throw unavailable('The identity provider cannot be reached to check your sign-in. Try again in a moment.');
      });
      if (!payload || payload.exp === undefined) return undefined;
      const user = await provisionUser(app.db, identityFrom(payload, issuerKey, oidc.usernameClaim), {
        adminSubjects: oidc.adminSubjects,
      });
      app.access.forgetAccount(user.id);
      verified.set(token, user.id, payload.exp * 1000);
      return user.id;
    };

    /** The user id behind a request's token not seen before (verified now), or 401. */
    const checkToken = async (request: FastifyRequest): Promise<number> => {
      const token = bearerToken(request);
      const userId = token ? await userIdFor(token, request) : undefined;
      if (userId === undefined) throw unauthenticated(token !== undefined);
      return userId;
    };

    // The embedded store is opened with an exclusive lock: only this process writes it.
    const localVersion = app.config.database.kind === 'sqlite' ? await readAccessVersion(app.db) : undefined;
    const groupNames = {
      creatorGroups: app.config.collectionCreatorGroups,
      digitalLabGroups: app.config.digitalLabGroups,
    };
    const accessOptions = localVersion === undefined ? groupNames : { localVersion, ...groupNames };
    app.decorate('access', new AccessModelCache(app.db, accessOptions));
    const lastSeen = new LastSeen(app.db, app.log);
    const tokens = new TokenAuthenticator(app.db, {
      localVersion: () => app.access.localVersion(),
      failures: app.createRateLimiter({ keyPrefix: 'token-failures', points: TOKEN_FAILURES_PER_MINUTE, duration: 60 }),
      log: app.log,
    });
    app.decorate('tokenAuthentication', tokens);
    app.addHook('onClose', async () => tokens.lastUsed.settled());
    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.user) return request.user;
      const known = verified.userOfBearer(request.headers.authorization);
      if (known === undefined) {
        const credential = bearerToken(request);
        if (credential !== undefined && looksLikeDataLabToken(credential)) {
          request.user = await tokens.authenticate(credential, request);
          return request.user;
        }
      }
      const userId = known ?? (await checkToken(request));
      const local = app.access.localVersion();
      const user =
        local === undefined
          ? await findActiveUserById(app.db, userId)
          : await app.access.account(userId, local, () => findActiveUserById(app.db, userId));
      if (!user?.is_active) throw unauthenticated();
      request.user = {
        id: user.id,
        name: user.name,
        username: user.username,
        email: user.email,
        canManageUsers: Boolean(user.can_manage_users),
        accessVersion: local ?? Number(user.access_version ?? 0),
      };
      lastSeen.touch(user.id);
      return request.user;
    });
  },
  { name: 'auth', dependencies: ['config', 'db', 'rate-limits'] },
);
