import type { RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { lazyPage } from '../../lazy-page.ts';

const login = lazyPage(
  () => import('./LoginRoute.tsx'),
  (m) => m.LoginRoute,
);

/** product §2/§4 auth routes: outside the layouts, so nothing else renders during the round trips. */
export const authRoutes: RouteObject[] = [
  { path: paths.login, lazy: login },
  { path: paths.identityResolve, lazy: login },
  {
    path: paths.signInCallback,
    lazy: lazyPage(
      () => import('./SignInCallbackRoute.tsx'),
      (m) => m.SignInCallbackRoute,
    ),
  },
  {
    path: paths.logout,
    lazy: lazyPage(
      () => import('./LogoutRoute.tsx'),
      (m) => m.LogoutRoute,
    ),
  },
  {
    path: paths.postLogoutCallback,
    lazy: lazyPage(
      () => import('./PostLogoutRoute.tsx'),
      (m) => m.PostLogoutRoute,
    ),
  },
];
