import type { RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { lazyPage } from '../../lazy-page.ts';
import { routePatterns } from '../../route-patterns.ts';

/** Behind RequirePermission('canManageUsers'). */
export const managementRoutes: RouteObject[] = [
  {
    path: paths.userManagement,
    lazy: lazyPage(
      () => import('./UserManagementPage.tsx'),
      (m) => m.UserManagementPage,
    ),
  },
  {
    path: paths.userGroups,
    lazy: lazyPage(
      () => import('./UserGroupListPage.tsx'),
      (m) => m.UserGroupListPage,
    ),
  },
  {
    path: paths.userGroupCreate,
    lazy: lazyPage(
      () => import('./UserGroupCreatePage.tsx'),
      (m) => m.UserGroupCreatePage,
    ),
  },
  {
    path: routePatterns.userGroup,
    lazy: lazyPage(
      () => import('./UserGroupPage.tsx'),
      (m) => m.UserGroupPage,
    ),
  },
  {
    path: paths.cacheManagement,
    lazy: lazyPage(
      () => import('./CacheManagementPage.tsx'),
      (m) => m.CacheManagementPage,
    ),
  },
  {
    path: paths.logManagement,
    lazy: lazyPage(
      () => import('./LogManagementPage.tsx'),
      (m) => m.LogManagementPage,
    ),
  },
  {
    path: paths.usageOverview,
    lazy: lazyPage(
      () => import('./UsageOverviewPage.tsx'),
      (m) => m.UsageOverviewPage,
    ),
  },
];
