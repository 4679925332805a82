import { z } from 'zod';

// A Web API data source's request, as the portal edits it and the server stores it: method, a path template with
// {param} placeholders (relative to the connection's base URL), query, header and body templates, where the rows are
// in the JSON reply and how to page. The same shape as the engine's request definition (packages/engine/src/http/
// template.ts), which checks it again on save and runs it; the credential is not part of it: a data source picks one
// of its connection's credentials apart (credentialId). Kept apart from api/*.ts so data-sources.ts and web-api.ts
// can both use it.

export const webApiMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type WebApiMethod = (typeof webApiMethods)[number];

export const webApiPaging = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  /** The next page's URL: at `path` in the reply body, or (path empty) in the Link header's rel="next". */
  z.object({ kind: z.literal('next'), path: z.string().max(200).default('') }),
  /** A page-number query parameter, from `start`, until a page has no rows (or fewer than `size`). */
  z.object({
    kind: z.literal('page'),
    param: z.string().min(1).max(100),
    start: z.number().int().min(0).default(1),
    size: z.number().int().min(1).max(100_000).optional(),
    sizeParam: z.string().min(1).max(100).optional(),
  }),
]);
export type WebApiPaging = z.infer<typeof webApiPaging>;

export const webApiRequest = z.object({
  method: z.enum(webApiMethods).default('GET'),
  /** Relative to the connection's base URL, with {param} placeholders; may end with a ?query part. */
  path: z.string().max(4000).default(''),
  /** Query parameters: name → template ("{param}" alone is left out when the value is not given). */
  query: z.record(z.string().min(1).max(200), z.string().max(4000)).default({}),
  /** Header templates; they override the connection's default headers. */
  headers: z.record(z.string().min(1).max(200), z.string().max(8192)).default({}),
  /** A JSON body template: a string "{param}" becomes the value itself. Not for GET or HEAD. */
  body: z.unknown().optional(),
  /** Dotted path to the rows in the JSON reply ('data.items'); empty: the reply itself. */
  rowsPath: z.string().max(200).default(''),
  paging: webApiPaging.default({ kind: 'none' }),
});
export type WebApiRequest = z.output<typeof webApiRequest>;
export type WebApiRequestInput = z.input<typeof webApiRequest>;

/** What a Web API asset's detail adds (GetByUid, the WebApiDataSource calls): its request and chosen credential. */
export const webApiAssetPart = z.object({
  request: webApiRequest,
  /** The connection credential sent with every request; null: none. */
  credential: z
    .object({ id: z.number().int(), name: z.string(), kind: z.enum(['api-key', 'basic', 'bearer', 'oauth2']) })
    .nullable(),
});
export type WebApiAssetPart = z.infer<typeof webApiAssetPart>;
