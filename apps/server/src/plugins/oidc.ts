import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import { interactionRoutes } from '../oidc/interactions.ts';
import { purgeExpiredPayloads } from '../oidc/adapter.ts';
import { errorPage } from '../oidc/pages.ts';
import { createBuiltInProvider, OIDC_MOUNT_PATH } from '../oidc/provider.ts';
import { createSignInThrottle } from '../oidc/sign-in-throttle.ts';
import { OIDC_ASSETS_DIR } from '../paths.ts';

// Mounts the built-in provider (embedded mode only) under /oidc. The provider is a Koa app: it gets
// the raw request with the mount path stripped and its body unread.
//
// The provider builds every URL it publishes (discovery, redirects, the logout form) from the
// request's host and protocol. So the request it sees names PUBLIC_URL's host, whatever Host the
// caller sent, and the protocol Fastify decided (X-Forwarded-Proto counts only with TRUST_PROXY).

/** Rewrites what the provider reads of the request: the configured host, the trusted protocol. */
function pinToPublicUrl(request: FastifyRequest, publicHost: string) {
  const { headers } = request.raw;
  headers.host = publicHost;
  delete headers['x-forwarded-host'];
  headers['x-forwarded-proto'] = request.protocol;
}

declare module 'fastify' {
  interface FastifyInstance {
    oidcProvider: Provider | null;
  }
}

/** Hands every other /oidc request to the provider (a Koa app), raw and with its body unread. */
async function mountProvider(scope: FastifyInstance, options: { provider: Provider; publicUrl: string }) {
  const publicUrl = new URL(options.publicUrl);
  const requiresTls = publicUrl.protocol === 'https:';
  const handle = options.provider.callback();
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  scope.all(`${OIDC_MOUNT_PATH}/*`, { schema: { hide: true } }, (request, reply) => {
    if (requiresTls && request.protocol !== 'https') {
      request.log.warn('sign-in reached over http while PUBLIC_URL is https: behind a TLS proxy, set TRUST_PROXY');
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(errorPage('Sign-in needs a secure connection', `Open ${publicUrl.origin} to sign in.`));
    }
    pinToPublicUrl(request, publicUrl.host);
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(OIDC_MOUNT_PATH.length) || '/';
    reply.hijack();
    handle(raw, reply.raw);
  });
}

const ASSETS: Record<string, string> = {
  'pages.css': 'text/css; charset=utf-8',
  'logout.js': 'text/javascript; charset=utf-8',
};

export default fp(
  async (app: FastifyInstance, options: { signingJwk: Record<string, unknown> | undefined }) => {
    const { config } = app;
    if (!config.oidc.builtIn || !options.signingJwk || !config.signingKey) {
      app.decorate('oidcProvider', null);
      return;
    }
    const provider = createBuiltInProvider({
      issuer: config.oidc.issuer,
      publicUrl: config.publicUrl,
      clientId: config.oidc.clientId,
      audience: config.oidc.audience,
      mcpResource: `${config.publicUrl}/mcp`,
      dynamicClientRegistration: config.mcp.enabled && config.mcp.dynamicClientRegistration,
      scopes: config.oidc.scopes,
      signingJwk: options.signingJwk,
      cookieSecret: config.signingKey,
      secureCookies: config.publicUrl.startsWith('https://'),
      db: app.db,
    });
    // Safe: pinToPublicUrl has replaced whatever the caller sent in these headers.
    provider.proxy = true;
    provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'oidc provider error'));
    app.decorate('oidcProvider', provider);

    const assets = new Map(
      Object.entries(ASSETS).map(([file, type]) => [file, { type, body: readFileSync(join(OIDC_ASSETS_DIR, file)) }]),
    );
    app.get<{ Params: { file: string } }>('/oidc-assets/:file', { schema: { hide: true } }, async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) return reply.callNotFound();
      return reply.header('cache-control', 'public, max-age=3600').type(asset.type).send(asset.body);
    });

    await app.register(interactionRoutes, { provider, throttle: createSignInThrottle(app.createRateLimiter) });

    await app.register(mountProvider, { provider, publicUrl: config.publicUrl });

    const timer = setInterval(() => {
      purgeExpiredPayloads(app.db).catch((error: unknown) => app.log.error({ err: error }, 'oidc purge failed'));
    }, 15 * 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'oidc', dependencies: ['config', 'db', 'rate-limits'] },
);
