import type { ConnectorSettings, ParameterDefinition } from '@datalab/engine';
import { parameterDefinitionSchema } from '@datalab/engine';
import { ruleSchema } from '@datalab/engine';
import type { Database } from '../../db/database.ts';
import type { ClientTool, SqlDriver } from '../../db/schema.ts';
import { connectorSettings, type SqlRuntime } from '../connections/runtime.service.ts';
import {
  findClientToolRows,
  findDataSource,
  findParameterRows,
  findRuleRows,
  findTransformationRows,
} from './repository.ts';

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
  sql: string;
  cacheTtlSeconds: number;
  rowCap: number;
  timeoutMs: number;
  maxExportRows: number;
  updatedAt: string;
  collection: { id: number; uid: string };
  /** Null only for an asset whose connection is missing (a Web API asset of a later issue). */
  connection: { id: number; name: string; driver: SqlDriver; settings: ConnectorSettings } | null;
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
      ...parameterDefinitionSchema.parse(parseJson(p.definition)),
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

/** The definition of a data asset by id or uid; undefined when there is none. */
export async function loadDefinition(
  db: Database,
  uidOrId: string | number,
  runtime: SqlRuntime,
): Promise<DataSourceDefinition | undefined> {
  const source = await findDataSource(db, uidOrId);
  if (!source) return undefined;
  const [collection, connection, parts] = await Promise.all([
    db.selectFrom('collections').select(['id', 'uid']).where('id', '=', source.collection_id).executeTakeFirstOrThrow(),
    source.connection_id === null
      ? undefined
      : db.selectFrom('connections').selectAll().where('id', '=', source.connection_id).executeTakeFirst(),
    loadParts(db, source.id),
  ]);
  return {
    id: source.id,
    uid: source.uid,
    name: source.name,
    description: source.description,
    kind: source.kind,
    version: source.version,
    sql: source.sql_text,
    cacheTtlSeconds: source.cache_ttl_seconds,
    rowCap: source.row_cap,
    timeoutMs: source.timeout_ms,
    maxExportRows: source.max_export_rows,
    updatedAt: source.updated_at,
    collection,
    connection:
      connection && connection.driver
        ? {
            id: connection.id,
            name: connection.name,
            driver: connection.driver,
            settings: connectorSettings(connection, runtime),
          }
        : null,
    ...parts,
  };
}
