import { useEffect, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate, useSearchParams } from 'react-router';
import { texts } from '@datalab/contract/texts';
import { rememberLoginRedirect, safeReturnPath } from '../../../lib/auth/login-redirect.ts';
import { useSession } from '../../../lib/auth/session.ts';
import { AuthStatus } from './AuthStatus.tsx';

/**
 * /login and /Home/IdentityResolve: remember where to go back to (the `returnUrl` parameter),
 * then hand over to the identity provider. Someone already signed in goes straight back.
 */
export function LoginRoute() {
  const auth = useAuth();
  const session = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const returnPath = safeReturnPath(searchParams.get('returnUrl'));
  const hasStarted = useRef(false);

  useEffect(() => {
    if (hasStarted.current || session.status === 'loading') return;
    hasStarted.current = true;
    if (session.isSignedIn) {
      void navigate(returnPath, { replace: true });
      return;
    }
    rememberLoginRedirect(returnPath);
    void auth.signinRedirect();
  }, [auth, navigate, returnPath, session.isSignedIn, session.status]);

  const error = auth.error?.source === 'signinRedirect' ? auth.error : null;
  return (
    <AuthStatus
      busyLabel="Taking you to sign in…"
      failure={error ? { summary: texts.signInFailed, error } : null}
      onRetry={() => void auth.signinRedirect()}
    />
  );
}
