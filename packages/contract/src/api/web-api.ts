import { z } from 'zod';
import { allowedHostsList, webApiConnectionLimits } from '../web-api-limits.ts';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { nameText, text } from '../text.ts';
import { webApiRequest } from '../web-api-request.ts';
import { createAssetBody, deleteAssetQuery, deletedAsset, updateAssetBody } from './asset-fields.ts';
import { assetPreviewBody, previewResult } from './asset-preview.ts';
import { dataSourceDetail } from './data-sources.ts';
import { createWebApiCredential, updateWebApiCredential, webApiCredential } from './web-api-credentials.ts';
import { exchangeList, upstreamFailure } from './web-api-exchanges.ts';

export * from './web-api-credentials.ts';
export * from './web-api-exchanges.ts';

// Web API connections (Owners manage them and their credentials) and Web API data assets (Editors manage them),
// product §7 "Web API connections and data sources", and the calls the screens need besides (docs/decisions.md):
// a collection's list, tests, and "Try" (a draft request run without saving).
//
// Secrets never come back: a credential's secret (API key value, password, token, client secret) is sealed at rest
// and replies carry the masked placeholder (texts.maskedSecret) when one is stored; an update keeps it unless a new
// value is sent (the placeholder or an absent field keeps it). Exchanges (what was sent upstream and what came
// back) show every secret, and every header or query value whose name says it is one, as the placeholder too.
//
// Meaning of the product §7 credential calls (docs/decisions.md):
// - POST /api/WebApiDataSource/Credentials: create a credential on a connection (body names it; Owner);
// - PUT /api/WebApiDataSource/Credentials: change one (body names it by id; Owner);
// - DELETE /api/WebApiDataSource/Credentials/{id} and DELETE /api/WebApiConnection/{id}/Credentials/{credId}: delete
//   one no data asset uses (Owner; 409 otherwise);
// - POST /api/WebApiConnection/{id}/Credentials/{credId}: test the connection with that credential (Owner);
// - PUT /api/WebApiDataSource/{id}/Credentials: pick the asset's credential among its connection's (Editor).

export const CONNECTION_NAME_MAX = 100;
export { ASSET_NAME_MAX } from './asset-fields.ts';
/** "Try" answers at most this many rows, whatever the asset's row cap (as the SQL preview). */
export const WEB_API_PREVIEW_ROW_CAP = 200;

// ---- Connections ----

export const webApiConnection = z.object({
  id: z.number().int(),
  collectionUid: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.literal('webapi'),
  /** http or https; requests go to paths under it. */
  baseUrl: z.string(),
  /** Sent with every request (a data source's headers override them). Names that say "secret" are refused. */
  headers: z.record(z.string(), z.string()),
  /**
   * Hosts ('host' or 'host:port') reachable even though internal (loopback, private, link-local addresses): the
   * outbound guard refuses them otherwise. Changed only by an administrator who is an Owner; every change is audited.
   */
  allowedHosts: z.array(z.string()),
  connectTimeoutMs: z.number().int(),
  headersTimeoutMs: z.number().int(),
  bodyTimeoutMs: z.number().int(),
  maxReplyBytes: z.number().int(),
  maxPages: z.number().int(),
  /** Simultaneous requests to the upstream; more wait up to acquireTimeoutMs. */
  maxConnections: z.number().int(),
  acquireTimeoutMs: z.number().int(),
  /** Retries of idempotent requests after a connect error or a 502/503/504. */
  retries: z.number().int(),
  credentials: z.array(webApiCredential),
  assetCount: z.number().int(),
  /** Whether the caller may change allowedHosts (an administrator with Owner on the collection). */
  canChangeAllowedHosts: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type WebApiConnection = z.infer<typeof webApiConnection>;

const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Invalid header name')
  .max(200);

const connectionSettingsShape = {
  name: nameText(CONNECTION_NAME_MAX),
  description: text(2000).default(''),
  baseUrl: z.url({ protocol: /^https?$/ }).max(2000),
  headers: z.record(headerName, z.string().max(8192)).default({}),
  /** Absent on an update: keep the stored list. */
  allowedHosts: allowedHostsList.optional(),
  ...webApiConnectionLimits,
};

export const createWebApiConnection = z.object({
  collectionUid: z.string().trim().min(1),
  ...connectionSettingsShape,
});
export const updateWebApiConnection = z.object(connectionSettingsShape);
export type CreateWebApiConnection = z.input<typeof createWebApiConnection>;
export type UpdateWebApiConnection = z.input<typeof updateWebApiConnection>;

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'Invalid option') });
const credentialParams = z.object({
  id: z.string().regex(/^\d{1,15}$/, 'Invalid option'),
  credId: z.string().regex(/^\d{1,15}$/, 'Invalid option'),
});

export const webApiTestResult = z.object({
  /** Reached, and answered below 500 (a 401/403 is a warning: the credential was not accepted). */
  ok: z.boolean(),
  /** The base URL's status; null when no reply came. */
  status: z.number().int().nullable(),
  /** 'HTTP 200 (nginx)'; empty when no reply came. */
  serverVersion: z.string(),
  warnings: z.array(z.string()),
  /** Why no usable reply came (refused by the outbound guard, unreachable, timed out); null when one did. */
  error: upstreamFailure.nullable(),
  ...exchangeList.shape,
});
export type WebApiTestResult = z.infer<typeof webApiTestResult>;

export const listWebApiConnections = defineCall({
  method: 'GET',
  path: '/api/WebApiConnection',
  tag: 'WebApiConnection',
  summary: "A collection's Web API connections with their credentials, secrets masked (Reader)",
  query: z.object({ collectionUid: z.string().trim().min(1) }),
  response: z.array(webApiConnection),
});

export const getWebApiConnection = defineCall({
  method: 'GET',
  path: '/api/WebApiConnection/:id',
  tag: 'WebApiConnection',
  summary: 'One Web API connection with its credentials and allowed hosts, secrets masked (Reader)',
  params: idParams,
  response: webApiConnection,
});

export const postWebApiConnection = defineCall({
  method: 'POST',
  path: '/api/WebApiConnection',
  tag: 'WebApiConnection',
  summary: 'Create a Web API connection in a collection; allowed hosts only by an administrator (Owner)',
  body: createWebApiConnection,
  response: webApiConnection,
  status: 201,
});

export const putWebApiConnection = defineCall({
  method: 'PUT',
  path: '/api/WebApiConnection/:id',
  tag: 'WebApiConnection',
  summary: 'Change a Web API connection; a change of allowed hosts needs an administrator and is audited (Owner)',
  params: idParams,
  body: updateWebApiConnection,
  response: webApiConnection,
});

export const deleteWebApiConnection = defineCall({
  method: 'DELETE',
  path: '/api/WebApiConnection/:id',
  tag: 'WebApiConnection',
  summary: 'Delete a Web API connection no data asset uses, with its credentials (Owner)',
  params: idParams,
  response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
});

export const testWebApiConnection = defineCall({
  method: 'POST',
  path: '/api/WebApiConnection/:id/Test',
  tag: 'WebApiConnection',
  summary: "GET the stored connection's base URL without a credential: status, warnings, the exchange (Owner)",
  params: idParams,
  response: webApiTestResult,
});

export const testUnsavedWebApiConnection = defineCall({
  method: 'POST',
  path: '/api/WebApiConnection/Test',
  tag: 'WebApiConnection',
  summary:
    'GET the base URL of settings not saved yet; with connectionId, its stored allowed hosts apply and credentialId may name one of its credentials (Owner)',
  body: createWebApiConnection.extend({
    connectionId: z.number().int().optional(),
    credentialId: z.number().int().optional(),
  }),
  response: webApiTestResult,
});

export const testWebApiCredential = defineCall({
  method: 'POST',
  path: '/api/WebApiConnection/:id/Credentials/:credId',
  tag: 'WebApiConnection',
  summary: "GET the connection's base URL with one of its credentials: is it accepted? (Owner)",
  params: credentialParams,
  response: webApiTestResult,
});

export const deleteWebApiConnectionCredential = defineCall({
  method: 'DELETE',
  path: '/api/WebApiConnection/:id/Credentials/:credId',
  tag: 'WebApiConnection',
  summary: 'Delete one of the connection’s credentials that no data asset uses; answers the connection (Owner)',
  params: credentialParams,
  response: webApiConnection,
});

export const postWebApiCredential = defineCall({
  method: 'POST',
  path: '/api/WebApiDataSource/Credentials',
  tag: 'WebApiDataSource',
  summary: 'Create a credential on a Web API connection; its secret is sealed at rest (Owner)',
  body: createWebApiCredential,
  response: webApiCredential,
  status: 201,
});

export const putWebApiCredential = defineCall({
  method: 'PUT',
  path: '/api/WebApiDataSource/Credentials',
  tag: 'WebApiDataSource',
  summary: 'Change a credential; the secret changes only when a new one is sent (Owner)',
  body: updateWebApiCredential,
  response: webApiCredential,
});

export const deleteWebApiCredential = defineCall({
  method: 'DELETE',
  path: '/api/WebApiDataSource/Credentials/:id',
  tag: 'WebApiDataSource',
  summary: 'Delete a credential no data asset uses (Owner)',
  params: idParams,
  response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
});

// ---- Data assets ----

/** The request, and one of the connection's credentials sent with every request (null or absent: none). */
const requestShape = { request: webApiRequest, credentialId: z.number().int().nullable().optional() };

/** Every `{param}` of the request must be a parameter (and the reverse is allowed: a parameter may go unused). */
export const createWebApiDataSource = createAssetBody(requestShape);
export type CreateWebApiDataSource = z.input<typeof createWebApiDataSource>;

/** Parameters, transformations and client tools are left as they are unless sent; so is the credential. */
export const updateWebApiDataSource = updateAssetBody(requestShape);
export type UpdateWebApiDataSource = z.input<typeof updateWebApiDataSource>;

export const postWebApiDataSource = defineCall({
  method: 'POST',
  path: '/api/WebApiDataSource',
  tag: 'WebApiDataSource',
  summary:
    'Create a Web API data asset with its request, credential, parameters, transformations and client tools (Editor)',
  body: createWebApiDataSource,
  response: dataSourceDetail,
  status: 201,
});

export const putWebApiDataSource = defineCall({
  method: 'PUT',
  path: '/api/WebApiDataSource',
  tag: 'WebApiDataSource',
  summary: 'Change a Web API data asset (Editor); bumps its version',
  body: updateWebApiDataSource,
  response: dataSourceDetail,
});

export const deleteWebApiDataSource = defineCall({
  method: 'DELETE',
  path: '/api/WebApiDataSource',
  tag: 'WebApiDataSource',
  summary: 'Delete a Web API data asset (Editor)',
  query: deleteAssetQuery,
  response: deletedAsset,
});

export const putWebApiDataSourceCredential = defineCall({
  method: 'PUT',
  path: '/api/WebApiDataSource/:id/Credentials',
  tag: 'WebApiDataSource',
  summary: "Pick the asset's credential among its connection's, or none (Editor); bumps its version",
  params: z.object({ id: z.string().trim().min(1).max(100) }),
  body: z.object({ credentialId: z.number().int().nullable() }),
  response: dataSourceDetail,
});

export const webApiPreviewResult = previewResult.extend({
  /** The upstream failure, when the run failed after the values passed (rows are then empty). */
  error: upstreamFailure.nullable(),
  ...exchangeList.shape,
});
export type WebApiPreviewResult = z.infer<typeof webApiPreviewResult>;

export const previewWebApiDataSource = defineCall({
  method: 'POST',
  path: '/api/WebApiDataSource/Preview',
  tag: 'WebApiDataSource',
  summary: `"Try": run a request that is not saved yet on a connection, at most ${WEB_API_PREVIEW_ROW_CAP} rows, with the exchange (Editor)`,
  body: assetPreviewBody(requestShape, WEB_API_PREVIEW_ROW_CAP),
  response: webApiPreviewResult,
});
