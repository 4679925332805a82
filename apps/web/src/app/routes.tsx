import { Navigate, type RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PageLoader } from '../components/page/PageLoader.tsx';
import { RequirePermission } from './guards/RequirePermission.tsx';
import { RequireSignIn } from './guards/RequireSignIn.tsx';
import { DigitalLabLayout } from './layouts/DigitalLabLayout.tsx';
import { MainLayout } from './layouts/MainLayout.tsx';
import { RootRoute } from './RootRoute.tsx';
import { authRoutes } from './routes/auth/auth-routes.ts';
import { ErrorPage } from './routes/errors/ErrorPage.tsx';
import { NotFoundPage } from './routes/errors/NotFoundPage.tsx';
import { RouteErrorFallback } from './routes/errors/RouteErrorFallback.tsx';
import { HomePage } from './routes/home/HomePage.tsx';
import { digitalLabRoutes } from './routes/digital-lab/digital-lab-routes.ts';
import { collectionRoutes, dataSourceRoutes, playgroundRoutes, tokenRoutes } from './routes/feature-routes.ts';
import { managementRoutes } from './routes/management/management-routes.ts';
import { policyRoutes } from './routes/policy/policy-routes.ts';

// product §2 and §6. Only the policy pages are public: everything else under a layout (home, the
// error and not-found pages included) needs sign-in, and management needs canManageUsers. Only
// home, the layouts and the error screens are in the first bundle: every other screen is loaded
// on first visit.

export const appRoutes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    ErrorBoundary: RouteErrorFallback,
    HydrateFallback: PageLoader,
    children: [
      ...authRoutes,
      {
        Component: MainLayout,
        children: [
          ...policyRoutes,
          {
            Component: RequireSignIn,
            children: [
              { index: true, Component: HomePage },
              { path: paths.error, Component: ErrorPage },
              ...dataSourceRoutes,
              ...collectionRoutes,
              ...tokenRoutes,
              ...playgroundRoutes,
              { element: <RequirePermission permission="canManageUsers" />, children: managementRoutes },
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
      {
        path: '/digital-lab',
        Component: DigitalLabLayout,
        children: [
          { index: true, element: <Navigate to={paths.digitalLabTokens} replace /> },
          { Component: RequireSignIn, children: [...digitalLabRoutes, { path: '*', Component: NotFoundPage }] },
        ],
      },
    ],
  },
];
