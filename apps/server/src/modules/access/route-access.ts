import type { DataRole } from '@datalab/contract/api/data-roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Collection } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import { auditWriter } from '../audit/audit.ts';
import type { Actor } from './change-access.service.ts';
import {
  authorizeCollection,
  collectionNotFound,
  hasPermission,
  type CollectionAction,
  type Permission,
} from './policy.ts';

// What each route declares it needs (routing/route.ts checks it before the handler runs). The rule
// itself stays in policy.ts; this file only reads the declaration and the request's named field.

/** A request field, by where it is: a path parameter, a query parameter or a body property. */
export type Field = { params: string } | { query: string } | { body: string };

type Requirement =
  | { public: true }
  | { signedIn: true }
  /** A system permission; `orSelf` also lets a user act on their own id. */
  | { permission: Permission; orSelf?: Field }
  /** A role on the collection whose uid the field holds: 404 when hidden, 403 when visible but not allowed. */
  | { collection: CollectionAction; uid: Field }
  /** The same for the collection holding the data asset (id or uid) the field names; hidden: 404 for the asset. */
  | { collection: CollectionAction; dataAsset: Field }
  /** The same for the collection holding the connection, or the data asset of the parameter, the field names. */
  | { collection: CollectionAction; connection: Field }
  | { collection: CollectionAction; parameter: Field }
  /** The same for the collection holding the Web API connection, or the Web API credential, the field names. */
  | { collection: CollectionAction; webApiConnection: Field }
  | { collection: CollectionAction; credential: Field }
  /** The same for the collection of the caller's own download job the field names (another's: 404, as unknown). */
  | { collection: CollectionAction; download: Field };

/**
 * What a route requires. `refusesTokens`: a Data Lab token cannot call it (403), whatever its roles — declared by
 * the calls that change tokens, roles, users, groups, memberships or collections (a token cannot mint tokens).
 */
export type RouteAccess = Requirement & { refusesTokens?: true };

export interface RouteGrant {
  collection: Collection | undefined;
  role: DataRole | null;
}

const NOTHING: RouteGrant = { collection: undefined, role: null };

function fieldText(field: Field): string {
  if ('params' in field) return `path ${field.params}`;
  if ('query' in field) return `query ${field.query}`;
  return `body ${field.body}`;
}

/** A human description of a declaration (the OpenAPI entry shows it); empty when it declares nothing. */
export function describeAccess(access: RouteAccess | undefined): string {
  const requirement = describeRequirement(access);
  return requirement && access?.refusesTokens ? `${requirement}; not with a Data Lab token` : requirement;
}

function describeRequirement(access: RouteAccess | undefined): string {
  if (!access || typeof access !== 'object') return '';
  if ('public' in access && access.public === true) return 'public';
  if ('signedIn' in access && access.signedIn === true) return 'signed in';
  if ('permission' in access)
    return access.orSelf ? `${access.permission}, or oneself (${fieldText(access.orSelf)})` : access.permission;
  if ('collection' in access && 'uid' in access)
    return `${access.collection} on the collection (${fieldText(access.uid)})`;
  if ('collection' in access && 'dataAsset' in access)
    return `${access.collection} on the data asset's collection (${fieldText(access.dataAsset)})`;
  if ('collection' in access && 'connection' in access)
    return `${access.collection} on the connection's collection (${fieldText(access.connection)})`;
  if ('collection' in access && 'parameter' in access)
    return `${access.collection} on the parameter's collection (${fieldText(access.parameter)})`;
  if ('collection' in access && 'webApiConnection' in access)
    return `${access.collection} on the Web API connection's collection (${fieldText(access.webApiConnection)})`;
  if ('collection' in access && 'credential' in access)
    return `${access.collection} on the credential's collection (${fieldText(access.credential)})`;
  if ('collection' in access && 'download' in access)
    return `${access.collection} on the collection of the caller's own download job (${fieldText(access.download)})`;
  return '';
}

/** The collection an object (named by a request field) belongs to; a caller's own objects only, where that matters. */
export type ObjectCollectionFinder = (
  db: FastifyInstance['db'],
  id: string,
  user: AuthUser,
) => Promise<Collection | undefined>;

/**
 * How each kind of object a route can name finds its collection. The modules that own those objects sit above
 * this one, so the app hands their finders in when it is built (routing/collection-finders.ts) instead of this
 * module importing them.
 */
export interface CollectionFinders {
  /** The collection by its uid. */
  uid: (db: FastifyInstance['db'], uid: string) => Promise<Collection | undefined>;
  dataAsset: ObjectCollectionFinder;
  connection: ObjectCollectionFinder;
  parameter: ObjectCollectionFinder;
  webApiConnection: ObjectCollectionFinder;
  credential: ObjectCollectionFinder;
  download: ObjectCollectionFinder;
}

declare module 'fastify' {
  interface FastifyInstance {
    collectionFinders: CollectionFinders;
  }
}

function readField(request: FastifyRequest, field: Field): string {
  const source = ('params' in field ? request.params : 'query' in field ? request.query : request.body) as
    Record<string, unknown> | undefined;
  const name = 'params' in field ? field.params : 'query' in field ? field.query : field.body;
  const value = source?.[name];
  return value === undefined || value === null ? '' : String(value);
}

async function authorizeInner(app: FastifyInstance, request: FastifyRequest, access: RouteAccess): Promise<RouteGrant> {
  if ('public' in access || 'signedIn' in access) return NOTHING;
  const user = request.user;
  if (!user) throw new Error('authorization needs an authenticated user');
  if ('permission' in access) {
    if (access.orSelf && readField(request, access.orSelf) === String(user.id)) return NOTHING;
    if (!(await hasPermission(app.access, user, access.permission))) throw forbidden();
    return NOTHING;
  }
  if ('uid' in access) {
    const uid = readField(request, access.uid);
    const collection = await app.collectionFinders.uid(app.db, uid);
    if (!collection) throw collectionNotFound(uid);
    return { collection, role: await authorizeCollection(app.access, user, collection, access.collection) };
  }
  const finders = app.collectionFinders;
  const [entity, id, find]: [string, string, ObjectCollectionFinder] =
    'dataAsset' in access
      ? ['Data asset', readField(request, access.dataAsset), finders.dataAsset]
      : 'connection' in access
        ? ['SQL connection', readField(request, access.connection), finders.connection]
        : 'webApiConnection' in access
          ? ['Web API connection', readField(request, access.webApiConnection), finders.webApiConnection]
          : 'credential' in access
            ? ['Credential', readField(request, access.credential), finders.credential]
            : 'download' in access
              ? ['Download', readField(request, access.download), finders.download]
              : ['Parameter', readField(request, access.parameter), finders.parameter];
  const collection = await find(app.db, id, user);
  if (!collection) throw notFound(entity, id);
  const role = await authorizeCollection(app.access, user, collection, access.collection).catch((error: unknown) => {
    throw (error as { status?: number }).status === 404 ? notFound(entity, id) : error;
  });
  return { collection, role };
}

/** Enforces a route's declaration; reports the time spent in Server-Timing (authz). */
export async function authorizeRoute(
  app: FastifyInstance,
  request: FastifyRequest,
  access: RouteAccess,
): Promise<RouteGrant> {
  if (access.refusesTokens && request.user?.token) throw forbidden();
  if ('public' in access || 'signedIn' in access) return NOTHING; // nothing to decide, nothing to time
  const started = performance.now();
  try {
    return await authorizeInner(app, request, access);
  } finally {
    if (request.user)
      request.user.authorizationMs = (request.user.authorizationMs ?? 0) + (performance.now() - started);
  }
}

/** The actor of one request, for the services it calls. */
export function actorOf(app: FastifyInstance, request: FastifyRequest): Actor {
  const user = request.user;
  if (!user) throw new Error('an actor needs an authenticated user');
  return { db: app.db, access: app.access, user, audit: auditWriter(app.appLog, request.id, user) };
}
