import { vi } from 'vitest';
import { configureApiClient } from '../lib/api-client.ts';

// A fetch at the API client's boundary that answers by method and path, for screen tests.

interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** A body that is not JSON (a YAML document), sent as it is. */
  text?: string;
  headers?: Record<string, string>;
}

export type FakeReply = FakeAnswer | ((request: FakeRequest) => FakeAnswer);

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** Routes are 'GET /api/DataSourceCollection/GetByUid/col-1' → reply. Unknown calls answer 404. */
export function fakeApi(routes: Record<string, FakeReply>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    const request: FakeRequest = {
      method,
      path: decodeURIComponent(url.pathname),
      query: url.searchParams,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const route = routes[`${method} ${request.path}`];
    const reply =
      typeof route === 'function'
        ? route(request)
        : (route ?? { status: 404, body: { title: 'Not found', status: 404 } });
    const answer = { status: reply.status ?? 200, headers: reply.headers ?? {} };
    return reply.text === undefined ? Response.json(reply.body ?? null, answer) : new Response(reply.text, answer);
  });
  const goToErrorPage = vi.fn<(url: string) => void>();
  configureApiClient({ baseUrl: '', getAccessToken: async () => 'token-1', goToErrorPage, fetch: fetchMock });
  return { fetchMock, requests, goToErrorPage };
}
