import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../lib/auth/session.ts';

/**
 * SPEC §4: the current user (and everything else fetched for the session) is cleared once the
 * user counts as signed out, so nothing of one session is shown in the next.
 */
export function SessionSync() {
  const { status } = useSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (status === 'signedOut') queryClient.removeQueries();
  }, [status, queryClient]);
  return null;
}
