import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from 'react-oidc-context';
import { useSession } from '../../lib/auth/session.ts';
import { clearSessionEnded, markSessionEnded } from '../../lib/auth/session-ended.ts';

/**
 * product §4: the current user (and everything else fetched for the session) is cleared once the
 * user counts as signed out, so nothing of one session is shown in the next. A failed silent renew
 * ends the session (the screens offer to sign in again); a new sign-in starts a fresh one.
 */
export function SessionSync() {
  const { status } = useSession();
  const { events } = useAuth();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (status === 'signedOut') queryClient.removeQueries();
  }, [status, queryClient]);
  useEffect(() => events.addSilentRenewError(markSessionEnded), [events]);
  useEffect(() => events.addUserLoaded(clearSessionEnded), [events]);
  return null;
}
