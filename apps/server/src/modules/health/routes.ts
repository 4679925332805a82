import { health } from '@datalab/contract/api/health';
import { PORTAL_CONFIG_PATH, portalConfig } from '@datalab/contract/api/portal-config';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pingDatabase } from '../../db/database.ts';
import { listDemoAccounts } from '../../oidc/accounts.ts';

// Unauthenticated endpoints: liveness, readiness, and what the single-page app needs before sign-in.

export default async function healthRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/health/live', { schema: { hide: true, response: { 200: health } } }, async () => ({
    status: 'ok' as const,
  }));

  typed.get(
    '/health/ready',
    { schema: { hide: true, response: { 200: health, 503: health } } },
    async (request, reply) => {
      try {
        await pingDatabase(app.db);
        return { status: 'ok' as const, checks: { store: 'ok' as const } };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable', checks: { store: 'failing' } });
      }
    },
  );

  typed.get(
    PORTAL_CONFIG_PATH,
    { schema: { hide: true, response: { 200: portalConfig } } },
    async (_request, reply) => {
      const { config } = app;
      reply.header('cache-control', 'no-cache');
      return {
        productName: PRODUCT_NAME,
        authority: config.oidc.issuer,
        clientId: config.oidc.clientId,
        scopes: config.oidc.scopes,
        apiBaseUrl: config.publicUrl,
        callingLayerUrl: config.callingLayerUrl,
        tokenExpiry: config.tokens,
        demoAccounts: config.demo && config.oidc.builtIn ? await listDemoAccounts(app.db) : [],
      };
    },
  );
}
