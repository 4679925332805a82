import type { DataSourceDetail, DataSourceSummary, TransformationView } from '@datalab/contract/api/data-sources';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { webApiRequest, type WebApiAssetPart } from '@datalab/contract/web-api-request';
import type { Collection, Connection, DataSource } from '../../db/schema.ts';
import type { DefinitionParts } from './definition.service.ts';
import type { ListedAsset } from './repository.ts';

// Data assets as replies show them. Parameters and rules go out as the engine stored them, with their ids.

export function presentSummary(row: ListedAsset, role: DataRole | null): DataSourceSummary {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    description: row.description,
    kind: row.kind,
    collection: { uid: row.collection_uid, name: row.collection_name },
    connectionName: row.connection_name,
    parameterCount: row.parameter_count,
    myRole: role,
    updatedAt: new Date(row.updated_at),
  };
}

export function presentTransformations(parts: Pick<DefinitionParts, 'transformations'>): TransformationView[] {
  return parts.transformations.map((t) => ({
    id: t.id,
    position: t.position,
    name: t.name,
    rules: t.rules.map((rule, position) => ({ ...rule, position })),
  }));
}

/** A Web API asset's stored request (checked on save; one that no longer parses shows as an empty GET). */
function storedRequest(source: DataSource): WebApiAssetPart['request'] {
  try {
    const parsed = webApiRequest.safeParse(JSON.parse(source.request_definition ?? '{}'));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through
  }
  return webApiRequest.parse({});
}

export function presentDetail(
  source: DataSource,
  collection: Collection,
  connection: Connection | undefined,
  parts: DefinitionParts,
  role: DataRole | null,
  canEdit: boolean,
  /** A Web API asset's chosen credential (name and kind only: never its secret). */
  credential?: WebApiAssetPart['credential'],
): DataSourceDetail {
  const webApi = source.kind === 'webapi' ? { request: storedRequest(source), credential: credential ?? null } : null;
  return {
    id: source.id,
    uid: source.uid,
    name: source.name,
    description: source.description,
    kind: source.kind,
    collection: { uid: collection.uid, name: collection.name },
    connectionName: connection?.name ?? null,
    parameterCount: parts.parameters.length,
    myRole: role,
    updatedAt: new Date(source.updated_at),
    createdAt: new Date(source.created_at),
    sql: source.kind === 'webapi' ? '' : source.sql_text,
    version: source.version,
    cacheTtlSeconds: source.cache_ttl_seconds,
    rowCap: source.row_cap,
    timeoutMs: source.timeout_ms,
    maxExportRows: source.max_export_rows,
    mcpAvailable: source.mcp_available === 1,
    connection: connection
      ? { id: connection.id, name: connection.name, kind: connection.driver ?? connection.kind }
      : null,
    parameters: parts.parameters,
    transformations: presentTransformations(parts),
    clientToolConfigurations: parts.clientTools,
    can: { edit: canEdit },
    webApi,
  };
}
