import type { AssetKind } from './asset-draft.ts';

// How each kind of source marks a caller's value: `:name` in SQL (bound by the driver), `{name}` in a Web API
// request (encoded into its place).

export interface PlaceholderSyntax {
  source: 'SQL' | 'request';
  mark: (name: string) => string;
}

export const placeholderSyntax: Record<AssetKind, PlaceholderSyntax> = {
  sql: { source: 'SQL', mark: (name) => `:${name}` },
  webapi: { source: 'request', mark: (name) => `{${name}}` },
};
