import { apiRuntime } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { aborted, httpFailure, networkFailure, type FailureContext } from './api-failure.ts';
import { joinUrl } from './api-request.ts';
import { readDeveloperMode } from './developer-mode.ts';

// A file from the API (a download job's file, a collection's definition as YAML) or the calling layer (its OpenAPI
// document): the same runtime, bearer token and product §8 handling as apiCall, but the reply is kept as a Blob
// instead of being decoded with a contract schema. The token goes in the Authorization header, never in the URL,
// which is why the browser cannot simply follow a link to the file.

export interface ApiFileOptions {
  signal?: AbortSignal;
  /** The media type asked for, where the call answers more than one (a definition: YAML or JSON). */
  accept?: string;
  /** Statuses the screen shows in place (see CallInput.quietStatuses). */
  quietStatuses?: readonly number[];
}

/** GETs `path` (an /api path) and answers its body as a Blob; any failure becomes an ApiError after product §8. */
export async function apiFile(path: string, options: ApiFileOptions = {}): Promise<Blob> {
  return fetchFile(joinUrl(apiRuntime().baseUrl, path), options);
}

/** GETs a whole `url` (the calling layer's too) with the bearer token and answers its body as a Blob, as apiFile. */
export async function fetchFile(
  url: string,
  { signal, accept = '*/*', quietStatuses = [] }: ApiFileOptions = {},
): Promise<Blob> {
  const { getAccessToken, goToErrorPage, isDeveloperMode = readDeveloperMode } = apiRuntime();
  const fetchImpl = apiRuntime().fetch ?? globalThis.fetch;
  const context: FailureContext = {
    method: 'GET',
    url,
    isDeveloperMode: isDeveloperMode(),
    goToErrorPage,
    quietStatuses,
  };

  const headers = new Headers({ Accept: accept });
  const token = await getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    const response = await fetchImpl(url, { method: 'GET', headers, signal });
    if (!response.ok) throw httpFailure(response.status, await response.text(), context);
    return await response.blob();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal?.aborted) throw aborted(error);
    throw networkFailure(error, context);
  }
}
