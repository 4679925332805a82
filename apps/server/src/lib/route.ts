import type { CallDefinition } from '@datalab/contract/call';
import type { DataRole } from '@datalab/contract/api/data-roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Collection } from '../db/schema.ts';
import type { AuthUser } from '../plugins/auth.ts';
import type { Actor } from '../modules/access/change-access.service.ts';
import { actorOf, authorizeRoute, describeAccess, type RouteAccess } from '../modules/access/route-access.ts';

// Registers one /api call from its contract definition, with the fixed pipeline of STYLE.md habit 4:
// authenticate (onRequest, before the body is read) → validate (schemas) → authorize, as the route
// declares (`access`: public, signed in, a permission, or a role on the collection a named field
// points at; the one policy decides) → handler, which calls the service and returns the presenter's
// output: the response schema's app form (Dates for date-times), which the serializer encodes.

type Out<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.output<NonNullable<T>>
    : undefined;

export interface RouteContext<C extends CallDefinition> {
  request: FastifyRequest;
  reply: FastifyReply;
  user: AuthUser;
  /** The caller as services see it: store, access model, user and audit writer. */
  actor: Actor;
  params: Out<C['params']>;
  query: Out<C['query']>;
  body: Out<C['body']>;
  /** The collection the route's access names, already authorized; undefined for other routes. */
  collection: Collection | undefined;
  /** The caller's effective role on that collection. */
  role: DataRole | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a caller needs to reach this route; every /api route states it (checked at registration). */
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Test builds only: replaces a route's declared access, to prove the authorization matrix bites. */
    accessOverride: ((route: string, declared: RouteAccess) => RouteAccess) | undefined;
  }
}

/** The collection a route's `{ collection }` declaration resolved (route() has authorized it). */
export function declaredCollection(collection: Collection | undefined): Collection {
  if (!collection) throw new Error('the route declared no collection, or none was resolved');
  return collection;
}

export function route<C extends CallDefinition>(
  app: FastifyInstance,
  call: C,
  declared: RouteAccess,
  handler: (context: RouteContext<C>) => Promise<z.output<C['response']>>,
) {
  const name = `${call.method} ${call.path}`;
  if (!describeAccess(declared)) throw new Error(`${name} states no access requirement`);
  const access = app.accessOverride ? app.accessOverride(name, declared) : declared;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    config: { access },
    schema: {
      tags: [call.tag],
      summary: call.summary,
      description: `Access: ${describeAccess(declared)}`,
      ...('public' in access ? {} : { security: [{ bearer: [] }] }),
      ...(call.params ? { params: call.params } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { [call.status ?? 200]: call.response },
    },
    onRequest: (request, _reply, done) => {
      if ('public' in access) return done();
      app.authenticate(request).then(() => done(), done);
    },
    handler: async (request, reply) => {
      const user = request.user;
      if (!user && !('public' in access)) throw new Error('authenticate did not run');
      const { collection, role } = await authorizeRoute(app, request, access);
      reply.status(call.status ?? 200);
      return handler({
        request,
        reply,
        user: user as AuthUser,
        // Built only when a handler asks (the hot read paths never do).
        get actor() {
          return actorOf(app, request);
        },
        params: request.params as Out<C['params']>,
        query: request.query as Out<C['query']>,
        body: request.body as Out<C['body']>,
        collection,
        role,
      });
    },
  });
}
