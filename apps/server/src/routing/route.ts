import type { CallDefinition } from '@datalab/contract/call';
import type { DataRole } from '@datalab/contract/api/data-roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Collection } from '../db/schema.ts';
import type { AuthUser } from '../lib/auth-user.ts';
import type { Actor } from '../modules/access/change-access.service.ts';
import { timingEntry } from '../lib/server-timing.ts';
import {
  actorOf,
  authorizeRoute,
  describeAccess,
  type RouteAccess,
  type RouteGrant,
} from '../modules/access/route-access.ts';

// Registers one /api call from its contract definition, with the fixed pipeline of code-style habit 4:
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

const NO_GRANT: RouteGrant = { collection: undefined, role: null };

/**
 * One request's handler context. A class, so that the lazy `actor` is a getter on the prototype:
 * an object literal with a getter, built per request, gets a hidden class of its own that V8 keeps in
 * the old generation with the request its getter closes over, so every request was promoted
 * (~2 kB) and freed only by full collections, which showed as garbage-collection time under the current-user load.
 */
class HandlerContext<C extends CallDefinition> implements RouteContext<C> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly user: AuthUser;
  readonly collection: Collection | undefined;
  readonly role: DataRole | null;
  readonly params: Out<C['params']>;
  readonly query: Out<C['query']>;
  readonly body: Out<C['body']>;
  readonly #app: FastifyInstance;

  constructor(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, grant: RouteGrant) {
    this.#app = app;
    this.request = request;
    this.reply = reply;
    this.user = request.user as AuthUser;
    this.collection = grant.collection;
    this.role = grant.role;
    this.params = request.params as Out<C['params']>;
    this.query = request.query as Out<C['query']>;
    this.body = request.body as Out<C['body']>;
  }

  /** Built only when a handler asks (the hot read paths never do). */
  get actor(): Actor {
    return actorOf(this.#app, this.request);
  }
}

/** Reports the time a request spent in authorization checks (Server-Timing; bench/ reads it), errors included. */
function reportAuthorization(request: FastifyRequest, reply: FastifyReply) {
  const authorizationMs = request.user?.authorizationMs;
  if (authorizationMs !== undefined) reply.header('server-timing', timingEntry('authz', authorizationMs));
}

/** The collection a route's `{ collection }` declaration resolved (route() has authorized it). */
export function declaredCollection(collection: Collection | undefined): Collection {
  if (!collection) throw new Error('the route declared no collection, or none was resolved');
  return collection;
}

/** Before validation: a request sent without a body gets `{}` (for calls whose body fields are all optional). */
function emptyBodyAsObject(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
  if (request.body === undefined) request.body = {};
  done();
}

export function route<C extends CallDefinition>(
  app: FastifyInstance,
  call: C,
  declared: RouteAccess,
  handler: (context: RouteContext<C>) => Promise<z.output<C['response']>>,
  /** A body limit of its own (a definition document is larger than BODY_LIMIT_BYTES allows). */
  options: { bodyLimit?: number } = {},
) {
  const name = `${call.method} ${call.path}`;
  if (!describeAccess(declared)) throw new Error(`${name} states no access requirement`);
  const access = app.accessOverride ? app.accessOverride(name, declared) : declared;
  const isPublic = 'public' in access;
  // Only declarations that name a permission or a collection role, or refuse tokens, have anything to decide.
  const decides = !isPublic && (!('signedIn' in access) || access.refusesTokens === true);
  const status = call.status ?? 200;
  const authenticate = (request: FastifyRequest) => app.authenticate(request);
  // A body whose every field is optional may be left out (`curl -X POST …/api/Caching/PurgeCache`): no body is `{}`.
  const bodyOptional = call.body !== undefined && call.body.safeParse({}).success;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    config: { access },
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    schema: {
      tags: [call.tag],
      summary: call.summary,
      description: `Access: ${describeAccess(declared)}`,
      ...(isPublic ? {} : { security: [{ bearer: [] }] }),
      ...(call.params ? { params: call.params } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { [status]: call.response },
    },
    ...(isPublic ? {} : { onRequest: authenticate }),
    ...(bodyOptional ? { preValidation: emptyBodyAsObject } : {}),
    handler: decides
      ? async (request, reply) => {
          if (!request.user) throw new Error('authenticate did not run');
          let grant: RouteGrant;
          try {
            grant = await authorizeRoute(app, request, access);
          } finally {
            reportAuthorization(request, reply);
          }
          reply.status(status);
          return handler(new HandlerContext<C>(app, request, reply, grant));
        }
      : // Public and signed-in routes have nothing to decide: no await before the handler's own.
        (request, reply) => {
          if (!isPublic && !request.user) throw new Error('authenticate did not run');
          reply.status(status);
          return handler(new HandlerContext<C>(app, request, reply, NO_GRANT));
        },
  });
}
