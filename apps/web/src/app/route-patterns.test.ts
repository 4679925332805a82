import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@datalab/contract/paths';
import { routePatterns } from './route-patterns.ts';

describe('route patterns', () => {
  const cases: [string, string, Record<string, string>][] = [
    [routePatterns.dataSource, paths.dataSource('ds 1'), { uid: 'ds 1' }],
    [routePatterns.dataSourceCall, paths.dataSourceCall('ds1'), { uid: 'ds1' }],
    [routePatterns.dataSourceCallDevMode, paths.dataSourceCallDevMode('ds1'), { uid: 'ds1' }],
    [routePatterns.collection, paths.collection('c1', 'assets'), { uid: 'c1', tab: 'assets' }],
    [routePatterns.collectionEdit, paths.collectionEdit('c1', 'roles'), { uid: 'c1', tab: 'roles' }],
    [routePatterns.collectionEditAsset, paths.collectionEditAsset('c1', 'a/1'), { uid: 'c1', dataAssetUid: 'a/1' }],
    [routePatterns.collectionCreateAsset, paths.collectionCreateAsset('c1'), { uid: 'c1' }],
    [
      routePatterns.collectionEditConnection,
      paths.collectionEditConnection('c1', 'warehouse'),
      { uid: 'c1', connectionName: 'warehouse' },
    ],
    [routePatterns.userGroup, paths.userGroup(12, 'members'), { id: '12', tab: 'members' }],
    [routePatterns.digitalLabAssetCall, paths.digitalLabAssetCall('a1'), { uid: 'a1' }],
  ];

  it.each(cases)('%s matches what the contract builds', (pattern, url, params) => {
    // matchRoutes decodes the URL as the router does.
    const matches = matchRoutes([{ path: pattern }], url);
    expect(matches).toHaveLength(1);
    expect(matches?.[0]?.params).toMatchObject(params);
  });
});
