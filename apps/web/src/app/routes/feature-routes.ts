import type { RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { lazyPage } from '../lazy-page.ts';
import { routePatterns } from '../route-patterns.ts';

export const dataSourceRoutes: RouteObject[] = [
  {
    path: paths.dataSources,
    lazy: lazyPage(
      () => import('./data-sources/DataSourceListPage.tsx'),
      (m) => m.DataSourceListPage,
    ),
  },
  {
    path: routePatterns.dataSource,
    lazy: lazyPage(
      () => import('./data-sources/DataSourcePage.tsx'),
      (m) => m.DataSourcePage,
    ),
  },
  {
    path: routePatterns.dataSourceCall,
    lazy: lazyPage(
      () => import('./data-sources/DataSourceCallPage.tsx'),
      (m) => m.DataSourceCallPage,
    ),
  },
  {
    path: paths.callingApi,
    lazy: lazyPage(
      () => import('./calling-api/CallingApiPage.tsx'),
      (m) => m.CallingApiPage,
    ),
  },
  {
    path: routePatterns.dataSourceCallDevMode,
    lazy: lazyPage(
      () => import('./data-sources/DataSourceCallDevModePage.tsx'),
      (m) => m.DataSourceCallDevModePage,
    ),
  },
];

export const collectionRoutes: RouteObject[] = [
  {
    path: paths.collections,
    lazy: lazyPage(
      () => import('./collections/CollectionListPage.tsx'),
      (m) => m.CollectionListPage,
    ),
  },
  {
    path: paths.collectionCreate,
    lazy: lazyPage(
      () => import('./collections/CollectionCreatePage.tsx'),
      (m) => m.CollectionCreatePage,
    ),
  },
  {
    path: routePatterns.collection,
    lazy: lazyPage(
      () => import('./collections/CollectionPage.tsx'),
      (m) => m.CollectionPage,
    ),
  },
  {
    path: routePatterns.collectionEdit,
    lazy: lazyPage(
      () => import('./collections/CollectionEditPage.tsx'),
      (m) => m.CollectionEditPage,
    ),
  },
  {
    path: routePatterns.collectionEditAsset,
    lazy: lazyPage(
      () => import('./collections/CollectionEditAssetPage.tsx'),
      (m) => m.CollectionEditAssetPage,
    ),
  },
  {
    path: routePatterns.collectionCreateAsset,
    lazy: lazyPage(
      () => import('./collections/CollectionCreateAssetPage.tsx'),
      (m) => m.CollectionCreateAssetPage,
    ),
  },
  {
    path: routePatterns.collectionEditConnection,
    lazy: lazyPage(
      () => import('./collections/CollectionEditConnectionPage.tsx'),
      (m) => m.CollectionEditConnectionPage,
    ),
  },
];

/** The signed-in user's own things: tokens, and the download jobs under My downloads. */
export const tokenRoutes: RouteObject[] = [
  {
    path: paths.downloads,
    lazy: lazyPage(
      () => import('./downloads/MyDownloadsPage.tsx'),
      (m) => m.MyDownloadsPage,
    ),
  },
  {
    path: paths.tokens,
    lazy: lazyPage(
      () => import('./tokens/TokenListPage.tsx'),
      (m) => m.TokenListPage,
    ),
  },
  {
    path: paths.tokenCreatePat,
    lazy: lazyPage(
      () => import('./tokens/CreatePatPage.tsx'),
      (m) => m.CreatePatPage,
    ),
  },
];

export const playgroundRoutes: RouteObject[] = [
  {
    path: paths.playground,
    lazy: lazyPage(
      () => import('./playground/PlaygroundPage.tsx'),
      (m) => m.PlaygroundPage,
    ),
  },
];
