import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { AuthContext, type AuthContextProps } from 'react-oidc-context';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { CurrentUser } from '@datalab/contract/api/account';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import { SessionSync } from '../app/providers/SessionSync.tsx';
import { appRoutes } from '../app/routes.tsx';
import { AppNotifications } from '../components/notifications/AppNotifications.tsx';
import { PortalConfigProvider } from '../config/portal-config-context.tsx';
import { cssVariablesResolver, theme } from '../config/theme.ts';
import { accountKeys } from '../features/account/keys.ts';
import { UserManagerProvider } from '../lib/auth/user-manager-context.tsx';
import { buildAuth, buildPortalConfig, buildUserManager } from './builders.ts';

export interface RenderAppOptions {
  path?: string;
  routes?: RouteObject[];
  auth?: AuthContextProps;
  /** Seeds the current-user query, as if GetCurrentUser had answered. */
  currentUser?: CurrentUser;
  config?: PortalConfig;
}

/** The app's providers around a memory router: real routes, a fake session. */
export function renderApp({
  path = '/',
  routes = appRoutes,
  auth = buildAuth(),
  currentUser,
  config = buildPortalConfig(),
}: RenderAppOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  if (currentUser) queryClient.setQueryData(accountKeys.currentUser(), currentUser);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <PortalConfigProvider config={config}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
        <AppNotifications />
        <QueryClientProvider client={queryClient}>
          <UserManagerProvider userManager={buildUserManager(config)}>
            <AuthContext value={auth}>
              <SessionSync />
              <RouterProvider router={router} />
            </AuthContext>
          </UserManagerProvider>
        </QueryClientProvider>
      </MantineProvider>
    </PortalConfigProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, queryClient, location };
}
