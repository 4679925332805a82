import { randomUUIDv7 } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Resolver } from '@datalab/engine';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { loadOrCreateSecrets } from './lib/dev-secrets.ts';
import { stdoutDestination } from './lib/log-destination.ts';
import { loggingOptions } from './lib/request-log.ts';
import accountRoutes from './modules/account/routes.ts';
import applicationLogRoutes from './modules/application-logs/routes.ts';
import cachingRoutes from './modules/caching/routes.ts';
import callingRoutes from './modules/calling/routes.ts';
import mcpRoutes from './modules/mcp/routes.ts';
import downloadsPlugin from './modules/downloads/plugin.ts';
import downloadRoutes from './modules/downloads/routes.ts';
import collectionRoutes from './modules/collections/routes.ts';
import connectionRoutes from './modules/connections/routes.ts';
import sqlRuntimePlugin from './modules/connections/plugin.ts';
import { recordReachSettings, warnMovedSqliteFiles } from './modules/connections/reach.ts';
import dataSourceRoutes from './modules/data-sources/routes.ts';
import dependentsRoutes from './modules/dependents/routes.ts';
import dataRoleRoutes from './modules/data-roles/routes.ts';
import definitionRoutes from './modules/definitions/routes.ts';
import tokenRoutes from './modules/tokens/routes.ts';
import webApiRoutes from './modules/web-api/routes.ts';
import userGroupRoutes from './modules/user-groups/routes.ts';
import userRoutes from './modules/users/routes.ts';
import healthRoutes from './modules/health/routes.ts';
import appLogPlugin from './plugins/app-log.ts';
import appLogRetentionPlugin from './plugins/app-log-retention.ts';
import authPlugin, { refuseTokenInUrl } from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import errorsPlugin, {
  clientErrorHandler,
  frameworkErrorReply,
  MAX_PARAM_LENGTH,
  notFoundReply,
  refuseLongUrl,
} from './plugins/errors.ts';
import type { MetricFamiliesKind } from './plugins/metric-families.ts';
import metricsPlugin from './plugins/metrics.ts';
import oidcPlugin from './plugins/oidc.ts';
import openapiPlugin from './plugins/openapi.ts';
import reportingRoutes from './modules/reporting/routes.ts';
import overloadPlugin from './plugins/overload.ts';
import rateLimitsPlugin from './plugins/rate-limits.ts';
import resultCachePlugin from './plugins/result-cache.ts';
import securityPlugin from './plugins/security.ts';
import usagePlugin from './plugins/usage.ts';
import webPlugin from './plugins/web.ts';
import demoApiRoutes from './seed/demo-api.ts';
import { seedDemo } from './seed/demo.ts';
import { describeAccess, type RouteAccess } from './modules/access/route-access.ts';
import { collectionFinders } from './routing/collection-finders.ts';

// The whole application as one Fastify instance that tests drive with inject; server.ts listens.

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route as 'METHOD /path', for the authorization matrix. */
    apiRoutes: string[];
  }
}

export interface BuildOptions {
  /** `false` turns logging off (most tests); otherwise the app's own logger options apply. */
  logger?: false;
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
  /** Adds routes before the app is sealed (tests use it to provoke failures). */
  extend?: (app: FastifyInstance) => Promise<void> | void;
  /** Test builds only: replaces a route's declared access (proves the authorization matrix bites). */
  accessOverride?: (route: string, declared: RouteAccess) => RouteAccess;
  /** Test builds only: resolves database host names instead of DNS (connections/plugin.ts). */
  resolveHost?: Resolver;
  /** Test builds only: prom-client's own Counter and Histogram instead of metric-families.ts (metrics.test.ts). */
  metricFamilies?: MetricFamiliesKind;
}

const REQUEST_ID = /^[A-Za-z0-9\-_.:]{8,128}$/;

function withKeys(config: Config): { config: Config; signingJwk: Record<string, unknown> | undefined } {
  if (config.isProduction) return { config, signingJwk: undefined };
  const secrets = loadOrCreateSecrets(config.dataDir);
  return {
    config: {
      ...config,
      signingKey: config.signingKey ?? Buffer.from(secrets.signingKey, 'base64'),
      encryptionKey: config.encryptionKey ?? Buffer.from(secrets.encryptionKey, 'base64'),
    },
    signingJwk: secrets.oidcJwk,
  };
}

/**
 * A body of no bytes sent as JSON is no body: a POST whose fields are all optional takes it as {} (route.ts), as it
 * does when the content type is left out.
 */
function withoutEmptyBodyType(headers: IncomingHttpHeaders) {
  const noBytes = headers['content-length'] === undefined || headers['content-length'] === '0';
  if (noBytes && headers['transfer-encoding'] === undefined) delete headers['content-type'];
}

/** TRUST_PROXY as a hop count: the nearest n proxies are believed (Fastify's types lack the number form). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

function publicJwks(jwk: Record<string, unknown>) {
  const { kty, n, e, kid, alg, use } = jwk;
  return { keys: [{ kty, n, e, kid, alg, use }] };
}

export async function buildApp(baseConfig: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config, signingJwk } = withKeys(baseConfig);
  // Log lines go to stdout in batches (lib/log-destination.ts); what is pending is written when the app closes.
  const logStream = options.logger === false || options.logDestination ? undefined : stdoutDestination();
  const app = Fastify({
    ...(options.logger === false ? { logger: false } : loggingOptions(config, options.logDestination ?? logStream!)),
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-For/-Proto are believed only from the proxies TRUST_PROXY names.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      // Time-ordered (UUIDv7): the request-id index of the call log records grows at its end, not at random
      // places (decision 113; random ids made that index the costliest part of recording a call).
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUIDv7();
    },
    requestIdHeader: false,
    return503OnClosing: true,
    clientErrorHandler,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A path the router refuses (too long a parameter, a malformed escape) gets the one error reply, not
    // Fastify's own, which repeats the whole path.
    frameworkErrors: frameworkErrorReply,
  });
  const apiRoutes: string[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.decorate('accessOverride', options.accessOverride);
  app.decorate('collectionFinders', collectionFinders);
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (options.url.startsWith('/api/') && !options.url.startsWith('/api/docs')) {
      // Every /api route states who may call it (routing/route.ts); one that does not is refused at start.
      if (!describeAccess(options.config?.access)) {
        throw new Error(`${methods.join(',')} ${options.url} states no access requirement`);
      }
      for (const method of methods) if (method !== 'HEAD') apiRoutes.push(`${method} ${options.url}`);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (logStream) {
    app.addHook('onClose', (_instance, done) => {
      logStream.close();
      done();
    });
  }
  // No onSend hook on purpose: x-request-id is set with the security headers (plugins/security.ts) and
  // Server-Timing by routing/route.ts, so a reply skips Fastify's onSend stage (bench/RESULTS.md).

  await app.register(configPlugin, { config });
  await app.register(dbPlugin);
  await app.register(sqlRuntimePlugin, { resolveHost: options.resolveHost });
  await app.register(resultCachePlugin);
  // Before every route: its onResponse hook counts them all (/metrics).
  await app.register(metricsPlugin, options.metricFamilies ? { families: options.metricFamilies } : {});
  await app.register(usagePlugin);
  await app.register(appLogPlugin);
  await app.register(appLogRetentionPlugin);
  await app.register(securityPlugin);
  await app.register(errorsPlugin);
  await app.register(rateLimitsPlugin);
  // Only the built-in provider's tokens are checked against our own key; an external provider's
  // keys come from its discovery document.
  await app.register(authPlugin, config.oidc.builtIn && signingJwk ? { localJwks: publicJwks(signingJwk) } : {});
  // The checks every request passes, in one onRequest hook (each hook is a step of Fastify's hook runner on every
  // request: bench/RESULTS.md, GetCurrentUser), before any route's own: the security headers first, so that a
  // refused reply carries them too; then a URL too long (414), a token in the URL (400), the load shedding (503).
  app.addHook('onRequest', (request, reply, done) => {
    withoutEmptyBodyType(request.headers);
    app.setSecurityHeaders(request, reply);
    done(refuseLongUrl(request) ?? refuseTokenInUrl(request) ?? app.refuseOverloaded(request));
  });
  await app.register(openapiPlugin);
  await recordReachSettings(app);
  if (config.demo) await seedDemo(app);
  await warnMovedSqliteFiles(app);
  // Its sampling starts after the start's own long steps (migrations, the demo seed), so that they never count as
  // overload.
  await app.register(overloadPlugin);
  await app.register(oidcPlugin, { signingJwk });
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(applicationLogRoutes);
  await app.register(cachingRoutes);
  await app.register(reportingRoutes);
  await app.register(collectionRoutes);
  await app.register(dataRoleRoutes);
  await app.register(userRoutes);
  await app.register(userGroupRoutes);
  await app.register(connectionRoutes);
  await app.register(dataSourceRoutes);
  await app.register(webApiRoutes);
  await app.register(definitionRoutes);
  await app.register(dependentsRoutes);
  await app.register(tokenRoutes);
  await app.register(callingRoutes);
  await app.register(mcpRoutes);
  await app.register(downloadsPlugin);
  await app.register(downloadRoutes);
  // The demo's sample Web API (/demo-api/v1), which the demo's Web API asset calls: only with the demo.
  if (config.demo) await app.register(demoApiRoutes);
  if (options.extend) await options.extend(app);
  await app.register(webPlugin);

  app.setNotFoundHandler(async (request, reply) => {
    if (app.servePage(request, reply)) return reply;
    return notFoundReply(request, reply);
  });
  return app;
}
