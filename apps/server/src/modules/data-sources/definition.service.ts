import type { AnyConnectorSettings, ParameterDefinition } from '@datalab/engine';
import { httpRequestText, storedParameterDefinitionSchema } from '@datalab/engine';
import { ruleSchema } from '@datalab/engine';
import type { Database } from '../../db/database.ts';
import type { ClientTool, Connection, DataSource, SqlDriver } from '../../db/schema.ts';
import {
  connectorSettings,
  credentialKey,
  httpConnectorSettings,
  type SqlRuntime,
} from '../connections/runtime.service.ts';
import {
  findClientToolRows,
  findCollectionRef,
  findConnectionRow,
  findDataSource,
  findParameterRows,
  findRuleRows,
  findTransformationRows,
} from './repository.ts';
import { findCredentialRow } from './web-api.repository.ts';

// The whole runnable definition of one data asset, as the calling layer (/data/v1) and the management
// calls' preview need it: the asset's row and limits, its connection's engine settings (secret opened),
// its parameters and its transformations with their rules, in order. Stored JSON is parsed with the
// engine's schemas, so what runs is what was validated on save.

export type StoredRule = ReturnType<typeof ruleSchema.parse> & { id: number };

export interface DefinitionTransformation {
  id: number;
  name: string;
  rules: StoredRule[];
}

export type StoredParameter = ParameterDefinition & { id: number };

export interface DataSourceDefinition {
  id: number;
  uid: string;
  name: string;
  description: string;
  kind: 'sql' | 'webapi';
  /** Bumped on every change to the asset, its parameters, transformations or client tool configuration. */
  version: number;
  /** SQL text; for a Web API asset, its request definition as the engine runs it (httpRequestText). */
  sql: string;
  cacheTtlSeconds: number;
  rowCap: number;
  timeoutMs: number;
  maxExportRows: number;
  /** Calls per minute per caller through the calling layer; null: RATE_LIMIT_PER_MINUTE. */
  rateLimitPerMinute: number | null;
  updatedAt: string;
  collection: { id: number; uid: string };
  /**
   * The connection's engine settings, its secret opened; for a Web API asset `{ kind: 'http' }` with only the
   * credential it sends (driver null). Null for an asset whose connection is missing.
   */
  connection: { id: number; name: string; driver: SqlDriver | null; settings: AnyConnectorSettings } | null;
  parameters: StoredParameter[];
  transformations: DefinitionTransformation[];
  clientTools: { id: number; tool: ClientTool; settings: Record<string, unknown> }[];
}

function parseJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

export interface DefinitionParts {
  parameters: (StoredParameter & { position: number })[];
  transformations: (DefinitionTransformation & { position: number })[];
  clientTools: DataSourceDefinition['clientTools'];
}

/** An asset's parameters, transformations (rules in order) and client tools, parsed with the engine's schemas. */
export async function loadParts(db: Database, dataSourceId: number): Promise<DefinitionParts> {
  const [parameterRows, transformationRows, ruleRows, toolRows] = await Promise.all([
    findParameterRows(db, dataSourceId),
    findTransformationRows(db, dataSourceId),
    findRuleRows(db, dataSourceId),
    findClientToolRows(db, dataSourceId),
  ]);
  return {
    parameters: parameterRows.map((p, position) => ({
      ...storedParameterDefinitionSchema.parse(parseJson(p.definition)),
      id: p.id,
      position,
    })),
    transformations: transformationRows.map((t, position) => ({
      id: t.id,
      name: t.name,
      position,
      rules: ruleRows
        .filter((r) => r.transformation_id === t.id)
        .map((r) => ({ ...ruleSchema.parse(parseJson(r.rule)), id: r.id })),
    })),
    clientTools: toolRows.map((c) => ({
      id: c.id,
      tool: c.tool,
      settings: parseJson(c.settings) as Record<string, unknown>,
    })),
  };
}

/** A Web API asset's stored request, as the engine runs it, with the credential it sends. */
export function webApiRequestText(source: Pick<DataSource, 'request_definition' | 'credential_id'>): string {
  let request: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(source.request_definition ?? '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed as Record<string, unknown>;
  } catch {
    // checked on save; an unreadable one runs as an empty request and fails upstream, not here
  }
  const { credential: _ignored, ...rest } = request;
  return httpRequestText(
    source.credential_id === null ? rest : { ...rest, credential: credentialKey(source.credential_id) },
  );
}

/** The runnable connection of an asset: SQL settings, or Web API settings with the asset's credential only. */
async function runnableConnection(
  db: Database,
  source: DataSource,
  connection: Connection | undefined,
  runtime: SqlRuntime,
  collectionUid: string,
): Promise<DataSourceDefinition['connection']> {
  if (!connection) return null;
  const base = { id: connection.id, name: connection.name };
  if (source.kind === 'webapi' && connection.kind === 'webapi') {
    const credential =
      source.credential_id === null ? undefined : await findCredentialRow(db, source.credential_id, connection.id);
    return { ...base, driver: null, settings: httpConnectorSettings(connection, credential, runtime) };
  }
  if (source.kind === 'sql' && connection.driver) {
    return { ...base, driver: connection.driver, settings: connectorSettings(connection, runtime, collectionUid) };
  }
  return null;
}

/** The definition of a data asset by id or uid; undefined when there is none. */
export async function loadDefinition(
  db: Database,
  uidOrId: string | number,
  runtime: SqlRuntime,
): Promise<DataSourceDefinition | undefined> {
  const source = await findDataSource(db, uidOrId);
  if (!source) return undefined;
  const [collection, connection, parts] = await Promise.all([
    findCollectionRef(db, source.collection_id),
    source.connection_id === null ? undefined : findConnectionRow(db, source.connection_id),
    loadParts(db, source.id),
  ]);
  return {
    id: source.id,
    uid: source.uid,
    name: source.name,
    description: source.description,
    kind: source.kind,
    version: source.version,
    sql: source.kind === 'webapi' ? webApiRequestText(source) : source.sql_text,
    cacheTtlSeconds: source.cache_ttl_seconds,
    rowCap: source.row_cap,
    timeoutMs: source.timeout_ms,
    maxExportRows: source.max_export_rows,
    rateLimitPerMinute: source.rate_limit_per_minute,
    updatedAt: source.updated_at,
    collection,
    connection: await runnableConnection(db, source, connection, runtime, collection.uid),
    ...parts,
  };
}
