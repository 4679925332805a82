import type { z } from 'zod';
import type { CallDefinition } from '@datalab/contract/call';
import { ApiError } from './api-error.ts';
import { buildBody, buildPath, buildQuery, joinUrl } from './api-request.ts';
import { aborted, httpFailure, invalidResponse, networkFailure, type FailureContext } from './api-failure.ts';
import { readDeveloperMode } from './developer-mode.ts';
import { parseReply } from './parse-reply.ts';

// The one API client (code-style habit 8): every /api call goes through `apiCall` with the bearer
// token and JSON, its reply is decoded with the call's contract schema (date-times become Dates),
// and every failure becomes an ApiError after product §8's handling (api-failure.ts).

export interface ApiClientRuntime {
  /** Where `/api/...` paths are appended: '' for the same origin. */
  baseUrl: string;
  /** Where the calling layer's `/data/v1/...` paths are appended (the portal config's callingLayerUrl). */
  callingBaseUrl?: string;
  getAccessToken: () => Promise<string | null | undefined>;
  /** How the client reaches the error page (the router's navigate). */
  goToErrorPage: (url: string) => void;
  isDeveloperMode?: () => boolean;
  fetch?: typeof fetch;
}

let runtime: ApiClientRuntime | null = null;

export function configureApiClient(next: ApiClientRuntime): void {
  runtime = next;
}

/** The configured runtime, for the calling layer's client (data-api.ts), which shares its token and handling. */
export function apiRuntime(): ApiClientRuntime {
  if (!runtime) throw new Error('configureApiClient must run before the first call');
  return runtime;
}

type Defined<T> = Exclude<T, undefined>;
type Slot<Name extends string, S> = [Defined<S>] extends [never]
  ? { [K in Name]?: never }
  : { [K in Name]: z.input<Extract<Defined<S>, z.ZodType>> };

export type CallInput<D extends CallDefinition> = Slot<'params', D['params']> &
  Slot<'query', D['query']> &
  Slot<'body', D['body']> & {
    signal?: AbortSignal;
    /**
     * Statuses other than 401 and 403 that the screen shows in place (a 404 as a not-found state, a 409 on
     * the form field, a 400 beside a live preview): the call still fails with the ApiError, without a toast.
     */
    quietStatuses?: readonly number[];
    /**
     * Fields whose 400 messages the form shows under the field (its request paths, e.g. the body's keys): the
     * toast leaves them out, and is not raised when nothing else is left to say.
     */
    inlineFields?: readonly string[];
  };

type NeedsInput<D extends CallDefinition> = [Defined<D['params'] | D['query'] | D['body']>] extends [never]
  ? false
  : true;

export type CallResult<D extends CallDefinition> = z.output<D['response']>;

export async function apiCall<D extends CallDefinition>(
  definition: D,
  ...[input]: NeedsInput<D> extends true ? [input: CallInput<D>] : [input?: CallInput<D>]
): Promise<CallResult<D>> {
  if (!runtime) throw new Error('configureApiClient must run before the first call');
  const { baseUrl, getAccessToken, goToErrorPage, isDeveloperMode = readDeveloperMode } = runtime;
  const fetchImpl = runtime.fetch ?? globalThis.fetch;

  const url = joinUrl(baseUrl, buildPath(definition.path, input?.params)) + buildQuery(input?.query);
  const body = buildBody(input?.body);
  const context: FailureContext = {
    method: definition.method,
    url,
    isDeveloperMode: isDeveloperMode(),
    goToErrorPage,
    quietStatuses: input?.quietStatuses ?? [],
    inlineFields: input?.inlineFields ?? [],
  };

  const headers = new Headers({ Accept: 'application/json' });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  const token = await getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let status: number;
  let text: string;
  try {
    const response = await fetchImpl(url, { method: definition.method, headers, body, signal: input?.signal });
    status = response.status;
    text = await response.text();
    if (!response.ok) throw httpFailure(status, text, context);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (input?.signal?.aborted) throw aborted(error);
    throw networkFailure(error, context);
  }

  const parsed = parseReply<D['response']>(definition.response, text);
  if (!parsed.success) throw invalidResponse(status, text, parsed.error, context);
  return parsed.data;
}
