import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AuthContext, type AuthContextProps } from 'react-oidc-context';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client.ts';
import { buildAuth, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { useCurrentUser } from './get-current-user.ts';

const fetchMock = vi.fn<typeof fetch>();

function wrapperFor(auth: AuthContextProps, queryClient: QueryClient) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <AuthContext value={auth}>{children}</AuthContext>
      </QueryClientProvider>
    );
  };
}

beforeEach(() => {
  fetchMock.mockReset();
  configureApiClient({ baseUrl: '', getAccessToken: async () => 'token-1', goToErrorPage: vi.fn(), fetch: fetchMock });
});

describe('useCurrentUser', () => {
  it('loads the current user through the API client when signed in', async () => {
    fetchMock.mockResolvedValue(Response.json(buildCurrentUser({ name: 'Grace Hopper' })));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { result } = renderHook(() => useCurrentUser(), {
      wrapper: wrapperFor(buildAuth({ user: buildUser() }), queryClient),
    });
    await waitFor(() => expect(result.current.data?.name).toBe('Grace Hopper'));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/Account/GetCurrentUser');
  });

  it('does not ask while signed out', async () => {
    const queryClient = new QueryClient();
    const { result } = renderHook(() => useCurrentUser(), { wrapper: wrapperFor(buildAuth(), queryClient) });
    await Promise.resolve();
    expect(result.current.fetchStatus).toBe('idle');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
