import type { RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { lazyPage } from '../../lazy-page.ts';
import { routePatterns } from '../../route-patterns.ts';

export const digitalLabRoutes: RouteObject[] = [
  {
    path: routePatterns.digitalLabAssetCall,
    lazy: lazyPage(
      () => import('./DigitalLabAssetCallPage.tsx'),
      (m) => m.DigitalLabAssetCallPage,
    ),
  },
  {
    path: paths.digitalLabTokens,
    lazy: lazyPage(
      () => import('./DigitalLabTokensPage.tsx'),
      (m) => m.DigitalLabTokensPage,
    ),
  },
  {
    path: paths.digitalLabCallingApi,
    lazy: lazyPage(
      () => import('../calling-api/CallingApiPage.tsx'),
      (m) => m.CallingApiPage,
    ),
  },
  {
    path: paths.digitalLabTokenCreatePat,
    lazy: lazyPage(
      () => import('./DigitalLabCreatePatPage.tsx'),
      (m) => m.DigitalLabCreatePatPage,
    ),
  },
];
