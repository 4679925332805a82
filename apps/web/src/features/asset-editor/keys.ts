import { queryScopes } from '../../lib/query-scopes.ts';

/** The asset editor's own queries: the collection's assets as parameter data sources, and their live previews. */
export const assetEditorKeys = {
  sources: (collectionUid: string) => [...queryScopes.dataSources, 'editor-sources', collectionUid] as const,
  parameterPreview: (body: object) => [...queryScopes.dataSources, 'editor-parameter-preview', body] as const,
};
