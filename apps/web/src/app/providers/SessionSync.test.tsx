import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { AuthContext, type AuthContextProps } from 'react-oidc-context';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '../../features/account/keys.ts';
import { buildAuth, buildCurrentUser, buildUser } from '../../test/builders.ts';
import { SessionSync } from './SessionSync.tsx';

function renderWith(auth: AuthContextProps) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(accountKeys.currentUser(), buildCurrentUser());
  render(
    <QueryClientProvider client={queryClient}>
      <AuthContext value={auth}>
        <SessionSync />
      </AuthContext>
    </QueryClientProvider>,
  );
  return queryClient;
}

describe('SessionSync', () => {
  it('keeps the current user while signed in', () => {
    expect(renderWith(buildAuth({ user: buildUser() })).getQueryData(accountKeys.currentUser())).toBeDefined();
  });

  it('clears it once the session has ended or the token expired', () => {
    expect(renderWith(buildAuth()).getQueryData(accountKeys.currentUser())).toBeUndefined();
    expect(
      renderWith(buildAuth({ user: buildUser({ expiresInSeconds: -5 }) })).getQueryData(accountKeys.currentUser()),
    ).toBeUndefined();
  });

  it('keeps it while the session is being restored', () => {
    expect(renderWith(buildAuth({ isLoading: true })).getQueryData(accountKeys.currentUser())).toBeDefined();
  });
});
