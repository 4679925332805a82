import { useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { AuthStatus } from './AuthStatus.tsx';

/**
 * /logout: end the session here and at the provider (id_token_hint), which then returns to
 * /auth/logout. Without a stored user there is nothing to end: go home.
 */
export function LogoutRoute() {
  const auth = useAuth();
  const navigate = useNavigate();
  const hasStarted = useRef(false);

  useEffect(() => {
    if (hasStarted.current || (auth.isLoading && !auth.user)) return;
    hasStarted.current = true;
    if (!auth.user) {
      void navigate(paths.home, { replace: true });
      return;
    }
    void auth.signoutRedirect({ id_token_hint: auth.user.id_token });
  }, [auth, navigate]);

  const error = auth.error?.source === 'signoutRedirect' ? auth.error : null;
  return (
    <AuthStatus
      busyLabel="Signing you out…"
      failure={error ? { summary: texts.signOutFailed, error } : null}
      onRetry={() => void auth.signoutRedirect()}
    />
  );
}
