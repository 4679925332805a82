import Provider, { errors as oidcErrors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { createHash } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { findDemoAccount, isDeactivated } from './accounts.ts';
import { createStoreAdapter } from './adapter.ts';
import { errorPage, logoutPage } from './pages.ts';

// The built-in OpenID Connect provider (product §13): authorization code + PKCE for the portal,
// JWT access tokens for the API audience, refresh tokens for silent renew. MCP clients use it too: they register
// themselves (RFC 7591, unless MCP_DYNAMIC_CLIENT_REGISTRATION is off), sign the person in with code + PKCE, and
// name the MCP endpoint as the resource (RFC 8707); its tokens carry the API's audience, which the endpoint belongs
// to, and any other resource is refused. A registered client is not first-party: the person consents to it once.

export const OIDC_MOUNT_PATH = '/oidc';
export const INTERACTION_PATH = `${OIDC_MOUNT_PATH}/interaction`;

export interface BuiltInProviderOptions {
  issuer: string;
  publicUrl: string;
  clientId: string;
  audience: string;
  /** The MCP endpoint's resource URL: a resource indicator naming it gets a token for the API audience. */
  mcpResource: string;
  /** MCP clients may register themselves (RFC 7591). */
  dynamicClientRegistration: boolean;
  scopes: string[];
  signingJwk: Record<string, unknown>;
  cookieSecret: Buffer;
  secureCookies: boolean;
  db: Database;
}

const CLAIMS_BY_SCOPE = {
  openid: ['sub'],
  profile: ['name', 'preferred_username', 'given_name', 'family_name', 'updated_at'],
  email: ['email', 'email_verified'],
  LOS: ['los'],
  locality: ['locality'],
  country: ['country'],
};

export function createBuiltInProvider(options: BuiltInProviderOptions): Provider {
  const { db } = options;
  const apiScopes = options.scopes.filter((scope) => scope !== 'openid' && scope !== 'offline_access').join(' ');
  const cookieKey = (label: string) =>
    createHash('sha256').update(options.cookieSecret).update(label).digest('base64url');

  const configuration: Configuration = {
    adapter: createStoreAdapter(db),
    clients: [
      {
        client_id: options.clientId,
        client_name: 'Data Lab',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${options.publicUrl}/auth/token`],
        post_logout_redirect_uris: [`${options.publicUrl}/auth/logout`],
      },
    ],
    jwks: { keys: [options.signingJwk] },
    cookies: {
      keys: [cookieKey('oidc-cookies')],
      long: { signed: true, secure: options.secureCookies, sameSite: 'lax' },
      short: { signed: true, secure: options.secureCookies, sameSite: 'lax' },
    },
    scopes: ['openid', 'offline_access', ...Object.keys(CLAIMS_BY_SCOPE).filter((s) => s !== 'openid')],
    claims: CLAIMS_BY_SCOPE,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: options.dynamicClientRegistration, initialAccessToken: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          const hinted = Boolean(ctx.oidc.params?.['id_token_hint']);
          ctx.type = 'html';
          ctx.body = logoutPage(form, hinted);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== options.audience && resource !== options.mcpResource) throw new oidcErrors.InvalidTarget();
          return {
            scope: apiScopes,
            audience: options.audience,
            accessTokenTTL: 15 * 60,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: 15 * 60,
      AuthorizationCode: 60,
      IdToken: 15 * 60,
      Interaction: 30 * 60,
      RefreshToken: 8 * 60 * 60,
      Session: 8 * 60 * 60,
      Grant: 8 * 60 * 60,
    },
    // The API provisions users from the access token alone, so it carries the profile claims.
    extraTokenClaims: async (_ctx, token) => {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const account = await findDemoAccount(db, token.accountId);
      return account ? { name: account.name, preferred_username: account.username, email: account.email } : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_ctx, origin) => origin === new URL(options.publicUrl).origin,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    // First-party portal: the user is never asked to consent to what the portal requests. Any other (registered)
    // client gets its grant from the consent page (interactions.ts) and keeps it for the session.
    loadExistingGrant: async (ctx) => {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      // A consent just given (interactions.ts) names its grant in the interaction's result.
      const consented = (ctx.oidc.result?.['consent'] as { grantId?: string } | undefined)?.grantId;
      const grantId = consented ?? session.grantIdFor(client.clientId);
      const grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (grant) return grant;
      if (client.clientId !== options.clientId) return undefined;
      const created = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      created.addOIDCScope(String(params?.['scope'] ?? 'openid'));
      created.addResourceScope(options.audience, apiScopes);
      await created.save();
      session.grantIdFor(client.clientId, created.jti);
      return created;
    },
    findAccount: async (_ctx, sub) => {
      const account = await findDemoAccount(db, sub);
      // Unknown, or deactivated since the session began: the provider then asks to sign in again and
      // refuses the account's refresh tokens, so a deactivation ends silent renewal too.
      if (!account || (await isDeactivated(db, sub))) return undefined;
      return {
        accountId: account.username,
        claims: async () => ({
          sub: account.username,
          name: account.name,
          preferred_username: account.username,
          email: account.email,
          email_verified: true,
          locality: 'Demo',
          country: 'Demo',
          los: 'demo',
        }),
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out['error'] ?? 'error'), String(out['error_description'] ?? ''));
    },
  };

  const provider = new Provider(options.issuer, configuration);
  return provider;
}
