import { LOGIN_REDIRECT_KEY, paths } from '@datalab/contract/paths';

// SPEC §4: before sign-in the wanted path is stored under the login-redirect key and used after
// sign-in; the fallback is home. Only same-origin paths are accepted (no open redirect), and
// never the auth routes themselves (no loop).

const AUTH_PATHS = [paths.login, paths.logout, paths.signInCallback, paths.postLogoutCallback, paths.identityResolve];

export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.home;
  const pathname = value.split(/[?#]/u)[0]?.toLowerCase() ?? '';
  if (AUTH_PATHS.some((path) => pathname === path.toLowerCase())) return paths.home;
  return value;
}

export function rememberLoginRedirect(returnPath: string | null | undefined): void {
  window.sessionStorage.setItem(LOGIN_REDIRECT_KEY, safeReturnPath(returnPath));
}

export function takeLoginRedirect(): string {
  const stored = window.sessionStorage.getItem(LOGIN_REDIRECT_KEY);
  window.sessionStorage.removeItem(LOGIN_REDIRECT_KEY);
  return safeReturnPath(stored);
}

/** `/login?returnUrl=<path+search>` for a signed-out visitor of a protected page. */
export function loginUrl(returnPath: string): string {
  return `${paths.login}?${new URLSearchParams({ returnUrl: returnPath }).toString()}`;
}
