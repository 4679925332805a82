import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { loadOrCreateSecrets } from './lib/dev-secrets.ts';
import accountRoutes from './modules/account/routes.ts';
import applicationLogRoutes from './modules/application-logs/routes.ts';
import collectionRoutes from './modules/collections/routes.ts';
import dataRoleRoutes from './modules/data-roles/routes.ts';
import userGroupRoutes from './modules/user-groups/routes.ts';
import userRoutes from './modules/users/routes.ts';
import healthRoutes from './modules/health/routes.ts';
import appLogPlugin from './plugins/app-log.ts';
import authPlugin from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import errorsPlugin, { notFoundReply } from './plugins/errors.ts';
import oidcPlugin from './plugins/oidc.ts';
import openapiPlugin from './plugins/openapi.ts';
import securityPlugin from './plugins/security.ts';
import webPlugin from './plugins/web.ts';
import { seedDemo } from './seed/demo.ts';

// The whole application as one Fastify instance that tests drive with inject; server.ts listens.

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route as 'METHOD /path', for the authorization matrix. */
    apiRoutes: string[];
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Adds routes before the app is sealed (tests use it to provoke failures). */
  extend?: (app: FastifyInstance) => Promise<void> | void;
}

/** One line per request, at completion; health probes are not logged. */
class RequestLogController extends LogController {
  constructor(enabled: boolean) {
    super({ disableRequestLogging: (request) => !enabled || request.url.startsWith('/health/') });
  }
  override incomingRequest(request: Parameters<LogController['incomingRequest']>[0]) {
    request.log.debug({ req: request }, 'incoming request');
  }
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

function publicJwks(jwk: Record<string, unknown>) {
  const { kty, n, e, kid, alg, use } = jwk;
  return { keys: [{ kty, n, e, kid, alg, use }] };
}

export async function buildApp(baseConfig: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config, signingJwk } = withKeys(baseConfig);
  // Log lines are buffered and written in the background; the buffer is flushed when the app closes.
  const logStream = options.logger === undefined ? pino.destination({ dest: 1, sync: false, minLength: 4096 }) : undefined;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
      stream: logStream,
    },
    logController: new RequestLogController(config.logRequests),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const apiRoutes: string[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    if (options.url.startsWith('/api/') && !options.url.startsWith('/api/docs')) {
      for (const method of methods) if (method !== 'HEAD') apiRoutes.push(`${method} ${options.url}`);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (logStream) app.addHook('onClose', (_instance, done) => logStream.flush(() => done()));
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // The cost of this request's authorization checks, measured in the server (bench/ reads it).
    const authorizationMs = request.user?.authorizationMs;
    if (authorizationMs !== undefined) reply.header('server-timing', `authz;dur=${authorizationMs.toFixed(3)}`);
    done(null, payload);
  });

  await app.register(configPlugin, { config });
  await app.register(dbPlugin);
  await app.register(appLogPlugin);
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  // Only the built-in provider's tokens are checked against our own key; an external provider's
  // keys come from its discovery document.
  await app.register(authPlugin, config.oidc.builtIn && signingJwk ? { localJwks: publicJwks(signingJwk) } : {});
  await app.register(openapiPlugin);
  if (config.demo) await seedDemo(app);
  await app.register(oidcPlugin, { signingJwk });
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(applicationLogRoutes);
  await app.register(collectionRoutes);
  await app.register(dataRoleRoutes);
  await app.register(userRoutes);
  await app.register(userGroupRoutes);
  if (options.extend) await options.extend(app);
  await app.register(webPlugin);

  app.setNotFoundHandler(async (request, reply) => {
    if (app.servePage(request, reply)) return reply;
    return notFoundReply(request, reply);
  });
  return app;
}
