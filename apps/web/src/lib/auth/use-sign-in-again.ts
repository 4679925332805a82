import { useAuth } from 'react-oidc-context';
import { useLocation, useNavigate } from 'react-router';
import { clearSessionEnded } from './session-ended.ts';
import { loginUrl } from './login-redirect.ts';

/** Forgets the ended session and starts sign-in, coming back to the page the user is on. */
export function useSignInAgain(): () => void {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    const here = `${location.pathname}${location.search}`;
    void auth
      .removeUser()
      .catch(() => undefined)
      .then(() => {
        clearSessionEnded();
        return navigate(loginUrl(here), { replace: true });
      });
  };
}
