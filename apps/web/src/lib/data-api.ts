import { z } from 'zod';
import { callResultWithExchanges, EXCHANGE_HEADER } from '@datalab/contract/api/web-api';
import { apiRuntime } from './api-client.ts';
import { fetchFile } from './api-file.ts';
import { ApiError } from './api-error.ts';
import { aborted, httpFailure, invalidResponse, networkFailure, type FailureContext } from './api-failure.ts';
import { joinUrl } from './api-request.ts';
import { readDeveloperMode } from './developer-mode.ts';
import { MalformedResult, readResultBody, type ResultBody } from './result-body.ts';

// The calling layer's client (/data/v1/{dataAssetUid}): the same bearer token and product §8 handling as apiCall, but
// the reply is a result (JSON) or a file (CSV, JSON, NDJSON, XLSX) rather than a contract call. Values go in a POST
// body, so no value (and never a token) ends up in a URL.

export const DATA_API_PREFIX = '/data/v1';
export const dataFormats = ['csv', 'json', 'ndjson', 'xlsx'] as const;
export type DataFormat = (typeof dataFormats)[number];

export const callResult = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
  durationMs: z.number(),
  cached: z.boolean(),
});
export type CallResult = z.infer<typeof callResult>;
/** What is checked with zod: everything but the rows, which are checked one by one as they are parsed. */
const callEnvelope = callResult.omit({ rows: true });
const exchangesEnvelope = callResultWithExchanges.omit({ rows: true });

/** What was sent and what came back, for the developer-mode screen. */
export interface DataExchange {
  method: 'POST';
  url: string;
  /** The request's headers as sent, the bearer token replaced by a placeholder. */
  requestHeaders: [name: string, value: string][];
  body: string;
  status: number;
  contentType: string;
  /** The reply's headers (Server-Timing among them: the calling layer shares the portal's origin). */
  responseHeaders: [name: string, value: string][];
  /** Time to the complete reply, as the browser saw it. */
  elapsedMs: number;
}

export const TOKEN_PLACEHOLDER = 'Bearer <your access token>';

/** The calling layer's base URL (the portal config's callingLayerUrl; this origin when it is the same server). */
export function callingLayerBaseUrl(baseUrl = apiRuntime().callingBaseUrl ?? apiRuntime().baseUrl): string {
  return baseUrl === '' ? window.location.origin : baseUrl;
}

/** The address of an asset on the calling layer (shown on screens and in snippets). */
export function dataAssetUrl(uid: string, baseUrl?: string): string {
  return joinUrl(callingLayerBaseUrl(baseUrl), `${DATA_API_PREFIX}/${encodeURIComponent(uid)}`);
}

async function send(
  uid: string,
  values: Record<string, unknown>,
  format: DataFormat,
  signal?: AbortSignal,
  extraHeaders: Readonly<Record<string, string>> = {},
  inlineFields: readonly string[] = [],
) {
  const { getAccessToken, goToErrorPage, isDeveloperMode = readDeveloperMode } = apiRuntime();
  const fetchImpl = apiRuntime().fetch ?? globalThis.fetch;
  const url = `${dataAssetUrl(uid)}?format=${format}`;
  const body = JSON.stringify(values);
  const context: FailureContext = {
    method: 'POST',
    url,
    isDeveloperMode: isDeveloperMode(),
    goToErrorPage,
    inlineFields,
  };
  const headers = new Headers({ 'Content-Type': 'application/json', ...extraHeaders });
  const token = await getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const startedAt = performance.now();
  try {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal });
    if (!response.ok) throw httpFailure(response.status, await response.text(), context);
    const exchange: DataExchange = {
      method: 'POST',
      url,
      requestHeaders: [...headers].map(([name, value]) => [name, name === 'authorization' ? TOKEN_PLACEHOLDER : value]),
      body,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      responseHeaders: [...response.headers],
      elapsedMs: 0,
    };
    return { response, exchange, startedAt, context };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal?.aborted) throw aborted(error);
    throw networkFailure(error, context);
  }
}

export interface CallOptions {
  /**
   * The developer view: ask for the upstream exchanges of a Web API asset's run (secrets masked by the server); a SQL
   * asset and a reply from the cache have none.
   */
  withExchanges?: boolean;
  /** The parameters the form shows a 400's messages under: the toast leaves them out. */
  inlineFields?: readonly string[];
}

/** Calls an asset for its JSON result (stops at the asset's row cap, then says truncated). */
export async function callDataAsset(
  uid: string,
  values: Record<string, unknown>,
  signal?: AbortSignal,
  { withExchanges = false, inlineFields = [] }: CallOptions = {},
) {
  const extraHeaders: Record<string, string> = withExchanges ? { [EXCHANGE_HEADER]: '1' } : {};
  const { response, exchange, startedAt, context } = await send(
    uid,
    values,
    'json',
    signal,
    extraHeaders,
    inlineFields,
  );
  // Up to 100,000 rows: read and parsed a slice at a time; zod checks the members around the rows, and each row is
  // only checked to be an object (a zod pass over every row cost a long task of its own).
  let body: ResultBody;
  try {
    body = await readResultBody(response);
  } catch (error) {
    if (error instanceof MalformedResult) throw invalidResponse(response.status, error.text, error, context);
    throw error;
  }
  const { members, rows, text } = body;
  exchange.elapsedMs = Math.round(body.receivedAt - startedAt);
  // The server sends exchanges to the collection's Editors and Owners only; anyone else gets the plain result.
  if (withExchanges && 'exchanges' in members) {
    const parsed = exchangesEnvelope.safeParse(members);
    if (!parsed.success) throw invalidResponse(response.status, text, parsed.error, context);
    const { exchanges, exchangesOmitted, ...envelope } = parsed.data;
    return { result: { ...envelope, rows }, raw: text, exchange, upstream: { exchanges, exchangesOmitted } };
  }
  const parsed = callEnvelope.safeParse(members);
  if (!parsed.success) throw invalidResponse(response.status, text, parsed.error, context);
  return { result: { ...parsed.data, rows }, raw: text, exchange, upstream: undefined };
}

/** Where the calling layer publishes its OpenAPI document of the assets the caller may call. */
export const callingOpenApiUrl = () => joinUrl(callingLayerBaseUrl(), `${DATA_API_PREFIX}/openapi.json`);

/** The calling layer's OpenAPI document for the signed-in user, as the bytes it answers (to show and to save). */
export async function fetchCallingOpenApi(signal?: AbortSignal): Promise<Blob> {
  return fetchFile(callingOpenApiUrl(), { signal, accept: 'application/json' });
}
