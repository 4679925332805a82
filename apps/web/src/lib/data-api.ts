import { z } from 'zod';
import { apiRuntime } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { aborted, httpFailure, invalidResponse, networkFailure, type FailureContext } from './api-failure.ts';
import { joinUrl } from './api-request.ts';
import { readDeveloperMode } from './developer-mode.ts';

// The calling layer's client (/data/v1/{dataAssetUid}): the same bearer token and SPEC §8 handling as apiCall, but
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

/** What was sent and what came back, for the developer-mode screen. */
export interface DataExchange {
  method: 'POST';
  url: string;
  body: string;
  status: number;
  contentType: string;
  /** Time to the complete reply, as the browser saw it. */
  elapsedMs: number;
}

/** The address of an asset on the calling layer (shown on screens and in snippets). */
export function dataAssetUrl(uid: string, baseUrl = apiRuntime().callingBaseUrl ?? apiRuntime().baseUrl): string {
  const origin = baseUrl === '' ? window.location.origin : baseUrl;
  return joinUrl(origin, `${DATA_API_PREFIX}/${encodeURIComponent(uid)}`);
}

async function send(uid: string, values: Record<string, unknown>, format: DataFormat, signal?: AbortSignal) {
  const { getAccessToken, goToErrorPage, isDeveloperMode = readDeveloperMode } = apiRuntime();
  const fetchImpl = apiRuntime().fetch ?? globalThis.fetch;
  const url = `${dataAssetUrl(uid)}?format=${format}`;
  const body = JSON.stringify(values);
  const context: FailureContext = { method: 'POST', url, isDeveloperMode: isDeveloperMode(), goToErrorPage };
  const headers = new Headers({ 'Content-Type': 'application/json' });
  const token = await getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const startedAt = performance.now();
  try {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal });
    if (!response.ok) throw httpFailure(response.status, await response.text(), context);
    const exchange: DataExchange = {
      method: 'POST',
      url,
      body,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      elapsedMs: 0,
    };
    return { response, exchange, startedAt, context };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal?.aborted) throw aborted(error);
    throw networkFailure(error, context);
  }
}

/** Calls an asset for its JSON result (stops at the asset's row cap, then says truncated). */
export async function callDataAsset(uid: string, values: Record<string, unknown>, signal?: AbortSignal) {
  const { response, exchange, startedAt, context } = await send(uid, values, 'json', signal);
  const text = await response.text();
  exchange.elapsedMs = Math.round(performance.now() - startedAt);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidResponse(response.status, text, error, context);
  }
  const parsed = callResult.safeParse(json);
  if (!parsed.success) throw invalidResponse(response.status, text, parsed.error, context);
  return { result: parsed.data, raw: text, exchange };
}

/** Downloads the whole result in a format; the file name is the server's (Content-Disposition). */
export async function downloadDataAsset(uid: string, values: Record<string, unknown>, format: DataFormat) {
  const { response } = await send(uid, values, format);
  const blob = await response.blob();
  return { blob, fileName: fileNameOf(response.headers.get('content-disposition')) ?? `${uid}.${format}` };
}

function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/iu.exec(disposition)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="?([^";]+)"?/iu.exec(disposition)?.[1] ?? null;
}
