import { health } from '@datalab/contract/api/health';
import { PORTAL_CONFIG_PATH, portalConfig } from '@datalab/contract/api/portal-config';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listDemoAccounts } from '../../oidc/accounts.ts';
import { readinessChecks } from './readiness.ts';

// Unauthenticated endpoints: liveness, readiness, and what the single-page app needs before sign-in.
// Liveness answers from the process alone (no store, no Redis): a store outage must not get the process restarted.

export default async function healthRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/health/live', { schema: { hide: true, response: { 200: health } } }, async () => ({
    status: 'ok' as const,
  }));

  const checks = await readinessChecks(app);
  typed.get(
    '/health/ready',
    { schema: { hide: true, response: { 200: health, 503: health } } },
    async (request, reply) => {
      const result = await checks(request.log);
      reply.header('cache-control', 'no-store');
      return reply.status(result.ready ? 200 : 503).send({
        status: result.ready ? 'ok' : 'unavailable',
        checks: result.checks,
      });
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
