import { queryScopes } from '../../lib/query-scopes.ts';

/** The asset editor's own queries: parameter data sources, their live previews, and the asset's versions. */
export const assetEditorKeys = {
  sources: (collectionUid: string) => [...queryScopes.dataSources, 'editor-sources', collectionUid] as const,
  parameterPreview: (body: object) => [...queryScopes.dataSources, 'editor-parameter-preview', body] as const,
  versions: (uid: string) => [...queryScopes.dataSources, 'versions', uid] as const,
  versionList: (uid: string, page: number) => [...assetEditorKeys.versions(uid), 'list', page] as const,
  version: (uid: string, version: number) => [...assetEditorKeys.versions(uid), 'one', version] as const,
};
