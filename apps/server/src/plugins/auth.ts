import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { JWTPayload } from 'jose';
import { unauthenticated } from '../lib/errors.ts';
import { createTokenVerifier, type TokenVerifier } from '../lib/jwt.ts';
import { provisionUser, type Identity } from '../modules/users/provisioning.ts';

// Authentication: who is calling. Every /api route runs `app.authenticate` first (STYLE.md habit 4);
// what the caller may do is decided afterwards, against the object itself.

export interface AuthUser {
  id: number;
  name: string;
  username: string | null;
  email: string | null;
  canManageUsers: boolean;
  /** Time spent in authorization checks for this request (reported in Server-Timing). */
  authorizationMs?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<AuthUser>;
  }
}

/** Users of the built-in provider keep one identity whatever address the server runs at. */
export const BUILT_IN_ISSUER_KEY = 'urn:datalab:builtin';

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
  return match?.[1];
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

export default fp(
  async (app: FastifyInstance, options: { localJwks?: { keys: Record<string, unknown>[] } }) => {
    const { oidc } = app.config;
    const verify: TokenVerifier = createTokenVerifier({
      issuer: oidc.issuer,
      audience: oidc.audience,
      ...(options.localJwks ? { localJwks: options.localJwks } : {}),
    });
    const issuerKey = oidc.builtIn ? BUILT_IN_ISSUER_KEY : oidc.issuer;

    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.user) return request.user;
      const token = bearerToken(request);
      if (!token) throw unauthenticated();
      const payload = await verify(token);
      if (!payload) throw unauthenticated();
      const user = await provisionUser(app.db, identityFrom(payload, issuerKey, oidc.usernameClaim), {
        adminSubjects: oidc.adminSubjects,
      });
      if (!user.is_active) throw unauthenticated();
      request.user = {
        id: user.id,
        name: user.name,
        username: user.username,
        email: user.email,
        canManageUsers: Boolean(user.can_manage_users),
      };
      return request.user;
    });
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);
