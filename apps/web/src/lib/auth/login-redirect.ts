import { LOGIN_REDIRECT_KEY, paths } from '@datalab/contract/paths';

// product §4: before sign-in the wanted path is stored under the login-redirect key and used after
// sign-in; the fallback is home. Only same-origin paths are accepted (no open redirect), and
// never the auth routes themselves (no loop).

const AUTH_PATHS = [paths.login, paths.logout, paths.signInCallback, paths.postLogoutCallback, paths.identityResolve];

// A URL parser drops tabs and newlines and reads `\` as `/`, so `/\t/evil.example` and `/\\evil.example`
// would leave the origin. Refuse them, every other control character, and the Unicode line separators.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\\u2028\u2029]/u;

/** `value` when it is a path of this origin (one leading `/`, not `//`), else home. */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || UNSAFE_CHARACTERS.test(value)) return paths.home;
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
