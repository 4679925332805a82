import { useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { loginUrl, takeLoginRedirect } from '../../../lib/auth/login-redirect.ts';
import { useSession } from '../../../lib/auth/session.ts';
import { AuthStatus } from './AuthStatus.tsx';

/**
 * /auth/token, the redirect URI. The AuthProvider completes the code exchange (only on this
 * path); once the user is loaded, go to the stored path (fallback home) and forget it.
 */
export function SignInCallbackRoute() {
  const auth = useAuth();
  const session = useSession();
  const navigate = useNavigate();
  const hasNavigated = useRef(false);
  const error = auth.error?.source === 'signinCallback' ? auth.error : null;

  useEffect(() => {
    if (hasNavigated.current || error) return;
    if (session.status === 'signedIn') {
      hasNavigated.current = true;
      void navigate(takeLoginRedirect(), { replace: true });
    } else if (session.status === 'signedOut') {
      // Opened without a sign-in in progress: nothing to complete.
      hasNavigated.current = true;
      void navigate(paths.home, { replace: true });
    }
  }, [error, navigate, session.status]);

  return (
    <AuthStatus
      busyLabel="Signing you in…"
      failure={error ? { summary: texts.signInFailed, error } : null}
      onRetry={() => void navigate(loginUrl(takeLoginRedirect()), { replace: true })}
    />
  );
}
