import { z } from 'zod';
import { defineCall } from '../call.ts';

// What a deletion would take with it, and what stops it, asked before deleting: a SQL connection, a Web API
// connection (with its credentials), a data asset, a collection. Each answers the same shape, so one confirmation
// dialog reads them all. The delete calls themselves refuse (409, naming the same blockers) while `blockers` is not
// empty; what `removes` lists goes in the same deletion.

export const dependentKinds = [
  'dataAsset',
  'sqlConnection',
  'webApiConnection',
  'credential',
  'token',
  'download',
  'cachedResult',
] as const;
export type DependentKind = (typeof dependentKinds)[number];

export const dependent = z.object({
  kind: z.enum(dependentKinds),
  /** The object's uid (data assets) or id, as text; null for things counted, not named (downloads, cache). */
  ref: z.string().nullable(),
  name: z.string(),
});
export type Dependent = z.infer<typeof dependent>;

export const dependentGroup = z.object({
  kind: z.enum(dependentKinds),
  count: z.number().int(),
  /** Up to 50 of them, by name (empty for downloads and cached results, which are only counted). */
  items: z.array(dependent),
});
export type DependentGroup = z.infer<typeof dependentGroup>;

export const dependents = z.object({
  /** What the object is, by name. */
  name: z.string(),
  /** What stops the deletion now, each with why (e.g. "uses this connection"); empty: it may be deleted. */
  blockers: z.array(dependent.extend({ reason: z.string() })),
  /** What goes with it when it is deleted, by kind, only kinds with at least one. */
  removes: z.array(dependentGroup),
});
export type Dependents = z.infer<typeof dependents>;

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'Invalid option') });

export const getSqlConnectionDependents = defineCall({
  method: 'GET',
  path: '/api/SqlConnection/:id/Dependents',
  tag: 'SqlConnection',
  summary: 'What deleting a SQL connection would take with it and which data assets stop it (Owner)',
  params: idParams,
  response: dependents,
});

export const getWebApiConnectionDependents = defineCall({
  method: 'GET',
  path: '/api/WebApiConnection/:id/Dependents',
  tag: 'WebApiConnection',
  summary:
    'What deleting a Web API connection would take with it (its credentials) and which data assets stop it (Owner)',
  params: idParams,
  response: dependents,
});

export const getCredentialDependents = defineCall({
  method: 'GET',
  path: '/api/WebApiDataSource/Credentials/:id/Dependents',
  tag: 'WebApiDataSource',
  summary: 'Which data assets send a Web API credential and so stop its deletion (Owner)',
  params: idParams,
  response: dependents,
});

export const getDataSourceDependents = defineCall({
  method: 'GET',
  path: '/api/DataSource/:id/Dependents',
  tag: 'DataSource',
  summary:
    "What deleting a data asset would take with it (its downloads, its cached results) and which assets' parameters stop it (Editor)",
  params: z.object({ id: z.string().trim().min(1).max(200) }),
  response: dependents,
});

export const getCollectionDependents = defineCall({
  method: 'GET',
  path: '/api/DataSourceCollection/:uid/Dependents',
  tag: 'DataSourceCollection',
  summary:
    'What deleting a collection would take with it: data assets, connections, credentials, tokens (revoked), downloads, cached results (Owner)',
  params: z.object({ uid: z.string().trim().min(1).max(200) }),
  response: dependents,
});
