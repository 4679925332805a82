import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Outlet, useLocation, type RouteObject } from 'react-router';
import { buildAuth, buildCurrentUser, buildUser } from '../../test/builders.ts';
import { renderApp } from '../../test/render-app.tsx';
import { RequirePermission } from './RequirePermission.tsx';
import { RequireSignIn } from './RequireSignIn.tsx';

function WhereAmI() {
  const location = useLocation();
  return <p>at {`${location.pathname}${location.search}`}</p>;
}

const routes: RouteObject[] = [
  {
    Component: Outlet,
    children: [
      { path: '/login', Component: WhereAmI },
      { path: '/error', Component: WhereAmI },
      {
        Component: RequireSignIn,
        children: [
          { path: '/tokens', element: <p>tokens page</p> },
          {
            element: <RequirePermission permission="canManageUsers" />,
            children: [{ path: '/management/cache', element: <p>cache page</p> }],
          },
        ],
      },
    ],
  },
];

describe('RequireSignIn', () => {
  it('sends a signed-out visitor to /login with the original path and search', async () => {
    const { location } = renderApp({ routes, path: '/tokens?sort=name&page=2' });
    await waitFor(() => expect(location()).toBe('/login?returnUrl=%2Ftokens%3Fsort%3Dname%26page%3D2'));
    expect(screen.queryByText('tokens page')).toBeNull();
  });

  it('treats a user whose token has expired as signed out', async () => {
    const { location } = renderApp({
      routes,
      path: '/tokens',
      auth: buildAuth({ user: buildUser({ expiresInSeconds: -60 }) }),
    });
    await waitFor(() => expect(location()).toBe('/login?returnUrl=%2Ftokens'));
  });

  it('waits while the session is still being restored', () => {
    const { location } = renderApp({ routes, path: '/tokens', auth: buildAuth({ isLoading: true }) });
    expect(screen.getByRole('status', { name: 'Checking your session' })).toBeTruthy();
    expect(location()).toBe('/tokens');
  });

  it('shows the page to a signed-in user', async () => {
    renderApp({ routes, path: '/tokens', auth: buildAuth({ user: buildUser() }) });
    expect(await screen.findByText('tokens page')).toBeTruthy();
  });
});

describe('RequirePermission', () => {
  it('sends a user without the permission to the error page with Unauthorised', async () => {
    const { location } = renderApp({
      routes,
      path: '/management/cache',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ permissions: { canManageUsers: false } }),
    });
    await waitFor(() => expect(location()).toMatch(/^\/error\?/u));
    const query = new URLSearchParams(location().split('?')[1]);
    expect(query.get('errorSummary')).toBe('Unauthorised');
    expect(query.get('errorMessage')).toBe('You are not authorised to perform this action');
    expect(screen.queryByText('cache page')).toBeNull();
  });

  it('shows the page to a holder of the permission', async () => {
    renderApp({
      routes,
      path: '/management/cache',
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ permissions: { canManageUsers: true } }),
    });
    expect(await screen.findByText('cache page')).toBeTruthy();
  });

  it('asks a signed-out visitor to sign in before looking at permissions', async () => {
    const { location } = renderApp({ routes, path: '/management/cache', currentUser: buildCurrentUser() });
    await waitFor(() => expect(location()).toBe('/login?returnUrl=%2Fmanagement%2Fcache'));
  });
});
