import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/page/PageLoader.tsx';
import { SessionEndedState } from '../../components/page/SessionEndedState.tsx';
import { loginUrl } from '../../lib/auth/login-redirect.ts';
import { useSession } from '../../lib/auth/session.ts';
import { useHasSessionEnded } from '../../lib/auth/session-ended.ts';

/**
 * product §4: a signed-out visitor of a protected page goes to /login, carrying the original path. A
 * session the API refused or could not renew says so and offers to sign in again.
 */
export function RequireSignIn() {
  const { status } = useSession();
  const hasEnded = useHasSessionEnded();
  const location = useLocation();
  if (hasEnded) return <SessionEndedState />;
  if (status === 'loading') return <PageLoader label="Checking your session" />;
  if (status === 'signedOut') return <Navigate to={loginUrl(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}
