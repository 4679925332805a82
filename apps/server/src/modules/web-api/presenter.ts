import type { WebApiConnection, WebApiCredential } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { storedAllowedHosts, storedCredentialSettings, storedHeaders } from '../connections/runtime.service.ts';
import type { CredentialRowWithCount, WebApiConnectionRow } from './repository.ts';

// Web API connections and credentials as replies show them: a credential's kind and non-secret settings, and for
// its secret only the placeholder saying one is stored (product §9). The allow-list is shown as it stands.

const text = (settings: Record<string, unknown>, key: string) =>
  typeof settings[key] === 'string' ? settings[key] : undefined;

export function presentCredential(row: CredentialRowWithCount): WebApiCredential {
  const settings = storedCredentialSettings(row);
  const common = {
    id: row.id,
    connectionId: row.connection_id,
    name: row.name,
    secret: row.secret ? texts.maskedSecret : null,
    assetCount: row.asset_count,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  switch (row.kind) {
    case 'api-key':
      return {
        ...common,
        kind: 'api-key',
        settings: { in: text(settings, 'in') === 'query' ? 'query' : 'header', name: text(settings, 'name') ?? '' },
      };
    case 'basic':
      return { ...common, kind: 'basic', settings: { username: text(settings, 'username') ?? '' } };
    case 'bearer':
      return { ...common, kind: 'bearer', settings: {} };
    case 'oauth2': {
      const scope = text(settings, 'scope');
      const audience = text(settings, 'audience');
      return {
        ...common,
        kind: 'oauth2',
        settings: {
          tokenUrl: text(settings, 'tokenUrl') ?? '',
          clientId: text(settings, 'clientId') ?? '',
          clientAuth: text(settings, 'clientAuth') === 'body' ? 'body' : 'basic',
          ...(scope ? { scope } : {}),
          ...(audience ? { audience } : {}),
        },
      };
    }
  }
}

export function presentWebApiConnection(
  row: WebApiConnectionRow,
  credentials: readonly CredentialRowWithCount[],
  canChangeAllowedHosts: boolean,
): WebApiConnection {
  return {
    id: row.id,
    collectionUid: row.collection_uid,
    name: row.name,
    description: row.description,
    kind: 'webapi',
    baseUrl: row.base_url ?? '',
    headers: storedHeaders(row),
    allowedHosts: storedAllowedHosts(row),
    connectTimeoutMs: row.connect_timeout_ms,
    headersTimeoutMs: row.headers_timeout_ms,
    bodyTimeoutMs: row.body_timeout_ms,
    maxReplyBytes: row.max_reply_bytes,
    maxPages: row.max_pages,
    maxConnections: row.pool_max,
    acquireTimeoutMs: row.acquire_timeout_ms,
    retries: row.retries,
    credentials: credentials.filter((c) => c.connection_id === row.id).map(presentCredential),
    assetCount: row.asset_count,
    canChangeAllowedHosts,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
