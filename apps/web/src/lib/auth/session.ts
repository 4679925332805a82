import { useEffect, useReducer } from 'react';
import { useAuth } from 'react-oidc-context';
import type { User } from 'oidc-client-ts';

// product §4: a user counts as signed out when unauthenticated or when the token's expiry has passed.

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export interface Session {
  status: SessionStatus;
  isSignedIn: boolean;
  user: User | null;
}

export function isSignedIn(user: Pick<User, 'expired'> | null | undefined): boolean {
  return user !== null && user !== undefined && user.expired !== true;
}

export function useSession(): Session {
  const auth = useAuth();
  // `expired` is computed from the clock, so re-render when the token actually expires.
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useEffect(() => auth.events.addAccessTokenExpired(rerender), [auth.events]);

  const user = auth.user ?? null;
  const signedIn = isSignedIn(user);
  const status: SessionStatus = signedIn ? 'signedIn' : auth.isLoading ? 'loading' : 'signedOut';
  return { status, isSignedIn: signedIn, user: signedIn ? user : null };
}
