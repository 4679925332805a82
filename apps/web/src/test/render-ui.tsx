import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { cssVariablesResolver, theme } from '../config/theme.ts';

/** One component with the app's providers and a memory router (its location readable), for component tests. */
export function renderUi(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  const view = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, router, queryClient, location: () => router.state.location.pathname };
}

/** The toasts raised so far (shown or queued). */
export function toastMessages(): string[] {
  const { notifications, queue } = notificationsStore.getState();
  return [...notifications, ...queue].map((item) => String(item.message));
}
