import { StrictMode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { UserManager } from 'oidc-client-ts';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import { AppProviders } from './providers/AppProviders.tsx';

export interface AppProps {
  config: PortalConfig;
  userManager: UserManager;
  queryClient: QueryClient;
  router: DataRouter;
}

export function App({ config, userManager, queryClient, router }: AppProps) {
  return (
    <StrictMode>
      <AppProviders config={config} userManager={userManager} queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
}
