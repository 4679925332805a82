import { useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { UserManager } from 'oidc-client-ts';
import { AuthProvider } from 'react-oidc-context';
import type { PortalConfig } from '@datalab/contract/api/portal-config';
import { paths } from '@datalab/contract/paths';
import { AppNotifications } from '../../components/notifications/AppNotifications.tsx';
import { readCspNonce } from '../../config/csp-nonce.ts';
import { PortalConfigProvider } from '../../config/portal-config-context.tsx';
import { cssVariablesResolver, theme } from '../../config/theme.ts';
import { UserManagerProvider } from '../../lib/auth/user-manager-context.tsx';
import { SessionSync } from './SessionSync.tsx';

export interface AppProvidersProps {
  config: PortalConfig;
  userManager: UserManager;
  queryClient: QueryClient;
  children: ReactNode;
}

// The sign-in callback route navigates on by itself once the user is loaded.
const keepUrl = () => undefined;

export function AppProviders({ config, userManager, queryClient, children }: AppProvidersProps) {
  const [nonce] = useState(readCspNonce);
  // Only the redirect URI completes a sign-in; code/state parameters elsewhere are not ours.
  const [isSignInCallback] = useState(() => window.location.pathname === paths.signInCallback);
  return (
    <PortalConfigProvider config={config}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        forceColorScheme="light"
        getStyleNonce={nonce ? () => nonce : undefined}
      >
        <AppNotifications />
        <QueryClientProvider client={queryClient}>
          <UserManagerProvider userManager={userManager}>
            <AuthProvider userManager={userManager} skipSigninCallback={!isSignInCallback} onSigninCallback={keepUrl}>
              <SessionSync />
              {children}
            </AuthProvider>
          </UserManagerProvider>
        </QueryClientProvider>
      </MantineProvider>
    </PortalConfigProvider>
  );
}
