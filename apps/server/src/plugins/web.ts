import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_WEB_DIST } from '../paths.ts';

// Serves the built single-page app: hashed assets with long caching, and index.html (with this
// request's CSP nonce) for every page path, so the app's router decides what a path shows.

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers with the app's index page; false when the request is not for a page. */
    servePage: (request: FastifyRequest, reply: FastifyReply) => boolean;
  }
}

const NOT_PAGES = /^\/(api|oidc|oidc-assets|health|assets|data)(\/|$)/;
/** A missing file (favicon.png, a stale chunk) is a 404, not the app. */
const LOOKS_LIKE_FILE = /\/[^/]*\.[A-Za-z0-9]{1,8}$/;

export default fp(
  async (app: FastifyInstance) => {
    const distDir = app.config.webDistDir ?? DEFAULT_WEB_DIST;
    const indexFile = join(distDir, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ distDir }, 'the web app is not built: pages are not served (npm run build)');
      app.decorate('servePage', () => false);
      return;
    }
    const index = readFileSync(indexFile, 'utf8');
    const canonical = new URL(app.config.publicUrl);

    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      globIgnore: ['index.html', '**/*.br', '**/*.gz'],
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });

    app.decorate('servePage', (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const path = request.url.split('?')[0] ?? '/';
      // Whatever Accept says: a portal route is the app (curl, link checkers, some crawlers send */*).
      if (NOT_PAGES.test(path) || LOOKS_LIKE_FILE.test(path)) return false;
      // Sign-in only works at the address the provider knows; send pages there.
      if (request.headers.host && request.headers.host !== canonical.host) {
        void reply.redirect(new URL(request.url, canonical).href, 308);
        return true;
      }
      const nonce = reply.withStyleNonce();
      void reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(index.replaceAll('__CSP_NONCE__', nonce));
      return true;
    });
  },
  { name: 'web', dependencies: ['config', 'security'] },
);
