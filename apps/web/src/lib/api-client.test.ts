import { notificationsStore } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { getCurrentUser } from '@datalab/contract/api/account';
import { postCollection } from '@datalab/contract/api/collections';
import { defineCall } from '@datalab/contract/call';
import { isoDateTime } from '@datalab/contract/dates';
import { texts } from '@datalab/contract/texts';
import { buildCollectionDetail, buildCurrentUser } from '../test/builders.ts';
import { apiCall, configureApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { DEVELOPER_MODE_KEY } from './developer-mode.ts';

const fetchMock = vi.fn<typeof fetch>();
const goToErrorPage = vi.fn<(url: string) => void>();

function reply(status: number, body: unknown): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': 'application/json' } });
}

function toasts(): string[] {
  const { notifications, queue } = notificationsStore.getState();
  return [...notifications, ...queue].map((item) => String(item.message));
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const saveThing = defineCall({
  method: 'PUT',
  path: '/api/Thing/:id',
  tag: 'Test',
  summary: 'test call',
  params: z.object({ id: z.number() }),
  query: z.object({ since: z.date().optional(), tags: z.array(z.string()).optional() }),
  body: z.object({ name: z.string(), validFrom: z.date() }),
  response: z.object({ id: z.number(), updatedAt: isoDateTime }),
});

beforeEach(() => {
  fetchMock.mockReset();
  goToErrorPage.mockReset();
  configureApiClient({
    baseUrl: 'http://api.test/',
    getAccessToken: async () => 'token-123',
    goToErrorPage,
    fetch: fetchMock,
  });
});

describe('apiCall on success', () => {
  it('sends the bearer token and JSON, and parses the reply with the call schema', async () => {
    fetchMock.mockResolvedValue(reply(200, buildCurrentUser({ name: 'Grace Hopper' })));
    const user = await apiCall(getCurrentUser);
    expect(user.name).toBe('Grace Hopper');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('http://api.test/api/Account/GetCurrentUser');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer token-123');
    expect(headers.get('Accept')).toBe('application/json');
    expect(toasts()).toEqual([]);
  });

  it('fills path parameters and the query, reduces outgoing dates to UTC dates and decodes incoming date-times', async () => {
    fetchMock.mockResolvedValue(reply(200, { id: 7, updatedAt: '2026-03-02T10:15:00.000Z' }));
    const result = await apiCall(saveThing, {
      params: { id: 7 },
      query: { since: new Date('2026-03-01T23:30:00-05:00'), tags: ['a', 'b'] },
      body: { name: 'x', validFrom: new Date('2026-01-31T22:00:00-03:00') },
    });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('http://api.test/api/Thing/7?since=2026-03-02&tags=a&tags=b');
    expect(init?.method).toBe('PUT');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'x', validFrom: '2026-02-01' });
    expect(result.updatedAt).toBeInstanceOf(Date);
    expect(result.updatedAt.toISOString()).toBe('2026-03-02T10:15:00.000Z');
  });

  it("decodes the contract's date-times into Dates, and only ISO date-times", async () => {
    const detail = buildCollectionDetail({
      createdAt: '2026-03-02T12:15:00.123+02:00',
      updatedAt: '2026-03-02T10:16:00Z',
    });
    fetchMock.mockResolvedValue(reply(201, detail));
    const created = await apiCall(postCollection, { body: { name: 'Sales', description: '' } });
    expect(created.createdAt).toEqual(new Date('2026-03-02T10:15:00.123Z'));
    expect(created.updatedAt).toEqual(new Date('2026-03-02T10:16:00.000Z'));
    expect(toasts()).toEqual([]);

    fetchMock.mockResolvedValue(reply(201, { ...detail, createdAt: '2 March 2026' }));
    const error = await failure(apiCall(postCollection, { body: { name: 'Sales', description: '' } }));
    expect(error.kind).toBe('invalid-response');
  });

  it('sends no Authorization header without a token', async () => {
    configureApiClient({ baseUrl: '', getAccessToken: async () => null, goToErrorPage, fetch: fetchMock });
    fetchMock.mockResolvedValue(reply(200, buildCurrentUser()));
    await apiCall(getCurrentUser);
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/Account/GetCurrentUser');
  });
});

describe('apiCall failures (product §8)', () => {
  it('400: toasts one "field: messages" line per field and fails with the errors map', async () => {
    const errors = { name: ['Name is required'], tags: ['At least one Tag is required', 'Invalid option'] };
    fetchMock.mockResolvedValue(reply(400, { title: 'Validation failed', status: 400, errors }));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(400);
    expect(error.errors).toEqual(errors);
    expect(toasts()).toEqual(['Name: Name is required\nTags: At least one Tag is required, Invalid option']);
    expect(goToErrorPage).not.toHaveBeenCalled();
  });

  it('400: names fields by their labels and leaves out those the form shows itself', async () => {
    const errors = { 'querystring.uid': ['No UID provided'], minTotal: ['Min total must be at least 0'] };
    fetchMock.mockResolvedValue(reply(400, { title: 'Validation failed', status: 400, errors }));
    await failure(apiCall(getCurrentUser, { inlineFields: ['minTotal'] }));
    expect(toasts()).toEqual(['UID: No UID provided']);
  });

  it('400: raises no toast when the form shows every refused field', async () => {
    const errors = { name: ['Name is required'], 'body.port': ['Port must be at most 65535'] };
    fetchMock.mockResolvedValue(reply(400, { title: 'Validation failed', status: 400, errors }));
    const error = await failure(apiCall(getCurrentUser, { inlineFields: ['name', 'port'] }));
    expect(error.errors).toEqual(errors);
    expect(toasts()).toEqual([]);
  });

  it('401: toasts the unauthenticated text and fails', async () => {
    fetchMock.mockResolvedValue(reply(401, { title: 'Unauthorized', status: 401 }));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('unauthenticated');
    expect(toasts()).toEqual(['Unauthenticated, Login to continue']);
  });

  it('403: goes to the error page with Unauthorised and the not-authorised message', async () => {
    fetchMock.mockResolvedValue(reply(403, { title: 'Forbidden', status: 403 }));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('forbidden');
    expect(goToErrorPage).toHaveBeenCalledTimes(1);
    const url = new URL(goToErrorPage.mock.calls[0]?.[0] ?? '', 'http://app.test');
    expect(url.pathname).toBe('/error');
    expect(url.searchParams.get('errorSummary')).toBe('Unauthorised');
    expect(url.searchParams.get('errorMessage')).toBe('You are not authorised to perform this action');
    expect(url.searchParams.has('details')).toBe(false);
    expect(toasts()).toEqual([]);
  });

  it('other statuses: the unknown-error text, or the raw body in developer mode', async () => {
    const body = '{"title":"Internal error","status":500,"requestId":"req-42"}';
    fetchMock.mockResolvedValue(reply(500, body));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.problem?.requestId).toBe('req-42');
    expect(toasts()).toEqual([texts.unknownError]);

    window.localStorage.setItem(DEVELOPER_MODE_KEY, 'true');
    fetchMock.mockResolvedValue(reply(502, body));
    await failure(apiCall(getCurrentUser));
    expect(toasts()).toEqual([texts.unknownError, body]);
  });

  it('429 and 502: their own texts, not the unknown-error text', async () => {
    fetchMock.mockResolvedValue(reply(429, { title: texts.tooManyRequests, status: 429, code: 'rate_limited' }));
    expect((await failure(apiCall(getCurrentUser))).message).toBe(texts.tooManyRequests);
    fetchMock.mockResolvedValue(reply(502, { title: texts.badGateway, status: 502, code: 'upstream' }));
    expect((await failure(apiCall(getCurrentUser))).message).toBe(texts.badGateway);
    expect(toasts()).toEqual([texts.tooManyRequests, texts.badGateway]);
    expect(toasts()).not.toContain(texts.unknownError);
  });

  it('a status the screen shows itself fails without a toast and keeps the errors map', async () => {
    const title = 'Collection with name Sales already exists';
    fetchMock.mockResolvedValue(reply(409, { title, status: 409, code: 'conflict', errors: { name: [title] } }));
    const error = await failure(
      apiCall(postCollection, { body: { name: 'Sales', description: '' }, quietStatuses: [409] }),
    );
    expect(error.status).toBe(409);
    expect(error.problem?.title).toBe(title);
    expect(error.errors).toEqual({ name: [title] });
    expect(toasts()).toEqual([]);

    fetchMock.mockResolvedValue(reply(500, { title: 'Internal error', status: 500 }));
    await failure(apiCall(postCollection, { body: { name: 'Sales', description: '' }, quietStatuses: [409] }));
    expect(toasts()).toEqual([texts.unknownError]);
  });

  it('network failure: the unknown-error text, or the error message in developer mode', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('network');
    expect(error.status).toBeNull();
    expect(toasts()).toEqual(['An unknown error occurred. Please contact support']);

    window.localStorage.setItem(DEVELOPER_MODE_KEY, 'true');
    await failure(apiCall(getCurrentUser));
    expect(toasts()).toEqual(['An unknown error occurred. Please contact support', 'Failed to fetch']);
  });

  it('a reply that does not match the contract fails as an ApiError', async () => {
    fetchMock.mockResolvedValue(reply(200, { id: 'not a number' }));
    const error = await failure(apiCall(getCurrentUser));
    expect(error.kind).toBe('invalid-response');
    expect(toasts()).toEqual([texts.unknownError]);
  });

  it('a cancelled call fails quietly', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(async () => {
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const error = await failure(apiCall(getCurrentUser, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(toasts()).toEqual([]);
  });
});
