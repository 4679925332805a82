import { notificationsStore } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { configureApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { apiFile } from './api-file.ts';

// The file fetch of the API client: the bearer token in a header (never the URL), the body as a Blob, and product §8's
// handling of a failure exactly as apiCall does it.

const fetchMock = vi.fn<typeof fetch>();
const goToErrorPage = vi.fn<(url: string) => void>();

const toasts = () => {
  const { notifications, queue } = notificationsStore.getState();
  return [...notifications, ...queue].map((item) => String(item.message));
};

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

describe('apiFile', () => {
  it('GETs the path with the bearer token in a header and answers the body as a Blob', async () => {
    fetchMock.mockResolvedValue(new Response('a,b\n1,2\n', { headers: { 'Content-Type': 'text/csv' } }));
    const blob = await apiFile('/api/Download/job%201/File');
    expect(await blob.text()).toBe('a,b\n1,2\n');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('http://api.test/api/Download/job%201/File');
    expect(String(url)).not.toContain('token-123');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer token-123');
  });

  it('fails a 401 with the unauthenticated toast', async () => {
    fetchMock.mockResolvedValue(Response.json({ title: 'Unauthorized', status: 401 }, { status: 401 }));
    const error = await apiFile('/api/Download/x/File').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('unauthenticated');
    expect(toasts()).toContain(texts.unauthenticatedToast);
  });

  it('fails a 404 with the unknown-error toast, and a 403 on the error page', async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ title: 'Not found', status: 404 }, { status: 404 }));
    const missing = await apiFile('/api/Download/x/File').catch((caught: unknown) => caught);
    expect((missing as ApiError).status).toBe(404);
    expect(toasts()).toContain(texts.unknownError);

    fetchMock.mockResolvedValueOnce(Response.json({ title: 'Forbidden', status: 403 }, { status: 403 }));
    await apiFile('/api/Download/x/File').catch(() => undefined);
    expect(goToErrorPage).toHaveBeenCalledOnce();
  });

  it('fails without a response as a network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await apiFile('/api/Download/x/File').catch((caught: unknown) => caught);
    expect((error as ApiError).kind).toBe('network');
    expect(toasts()).toContain(texts.unknownError);
  });
});
