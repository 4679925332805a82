import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/page/PageLoader.tsx';
import { loginUrl } from '../../lib/auth/login-redirect.ts';
import { useSession } from '../../lib/auth/session.ts';

/** SPEC §4: a signed-out visitor of a protected page goes to /login, carrying the original path. */
export function RequireSignIn() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageLoader label="Checking your session" />;
  if (status === 'signedOut') return <Navigate to={loginUrl(`${location.pathname}${location.search}`)} replace />;
  return <Outlet />;
}
