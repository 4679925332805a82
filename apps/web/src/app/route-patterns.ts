import { paths } from '@datalab/contract/paths';

// Route patterns of the screens with parameters, composed from the contract's paths so that the
// two cannot drift apart (route-patterns.test.ts checks each builder against its pattern).

export const routePatterns = {
  dataSource: `${paths.dataSources}/:uid`,
  dataSourceCall: `${paths.dataSources}/:uid/call`,
  dataSourceCallDevMode: `${paths.dataSources}/:uid/call-dev-mode`,
  collection: `${paths.collections}/:uid/:tab?`,
  collectionEdit: `${paths.collections}/:uid/edit/:tab?`,
  collectionEditAsset: `${paths.collections}/:uid/edit/data-asset/:dataAssetUid?`,
  collectionCreateAsset: `${paths.collections}/:uid/createAsset`,
  collectionEditConnection: `${paths.collections}/:uid/edit/connection/:connectionName`,
  userGroup: '/management/user-group/:id/:tab',
  digitalLabAssetCall: '/digital-lab/data-asset/:uid/call',
} as const;
