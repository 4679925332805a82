import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { useUserManager } from '../../../lib/auth/user-manager-context.tsx';
import { AuthStatus } from './AuthStatus.tsx';

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** /auth/logout, the post-logout redirect: finish the provider round trip, clear the local user, go home. */
export function PostLogoutRoute() {
  const userManager = useUserManager();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<Error | null>(null);
  const hasStarted = useRef(false);

  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    const callbackUrl = new URL(`${location.pathname}${location.search}`, window.location.origin).href;
    void (async () => {
      let failure: Error | null = null;
      try {
        await userManager.signoutRedirectCallback(callbackUrl);
      } catch (caught) {
        failure = toError(caught);
      }
      // Whatever the provider answered, nothing of the session stays in this browser.
      await userManager.removeUser();
      if (failure) setError(failure);
      else void navigate(paths.home, { replace: true });
    })();
  }, [location, navigate, userManager]);

  return <AuthStatus busyLabel="Signing you out…" failure={error ? { summary: texts.signOutFailed, error } : null} />;
}
