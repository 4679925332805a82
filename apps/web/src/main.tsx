import './config/zod-jitless.ts';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/App.tsx';
import { appRoutes } from './app/routes.tsx';
import { StartupFailure } from './app/StartupFailure.tsx';
import { loadPortalConfig } from './config/portal-config.ts';
import { configureApiClient } from './lib/api-client.ts';
import { isSignedIn } from './lib/auth/session.ts';
import { createUserManager } from './lib/auth/user-manager.ts';
import { createQueryClient } from './lib/query-client.ts';

async function start(container: HTMLElement): Promise<void> {
  const root = createRoot(container);
  let config;
  try {
    config = await loadPortalConfig();
  } catch (error) {
    root.render(<StartupFailure error={error instanceof Error ? error : new Error(String(error))} />);
    return;
  }

  const userManager = createUserManager(config);
  void userManager.clearStaleState().catch(() => undefined);
  const router = createBrowserRouter(appRoutes);
  configureApiClient({
    baseUrl: config.apiBaseUrl,
    callingBaseUrl: config.callingLayerUrl,
    getAccessToken: async () => {
      const user = await userManager.getUser();
      return isSignedIn(user) ? user?.access_token : null;
    },
    goToErrorPage: (url) => void router.navigate(url),
  });

  root.render(<App config={config} userManager={userManager} queryClient={createQueryClient()} router={router} />);
}

const container = document.getElementById('root');
if (container) void start(container);
