import {
  collectOptions,
  runQuery,
  storedParameterDefinitionSchema,
  type ConnectorRegistry,
  type ParameterDefinition,
  type ParameterOption,
  type QueryResult,
  type Row,
} from '@datalab/engine';
import { PREVIEW_ROW_CAP } from '@datalab/contract/api/sql-data-sources';
import { messages } from '@datalab/contract/messages';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { mapEngineErrors } from '../../lib/engine-errors.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { connectorSettings, type SqlRuntime } from '../connections/runtime.service.ts';
import { loadDefinition, type DataSourceDefinition } from './definition.service.ts';
import { findConnectionRow, findParameterWithCollection } from './repository.ts';
import { checkParameters, checkTransformations } from './validation.ts';

// Running through the engine from the management calls: the editor's preview of SQL not saved yet, and the
// allowed values of a parameter from its parameter data source (dependent dropdowns). parameterOptions is also
// what the calling layer uses to check such values before a run.

export interface RunServices {
  db: Database;
  runtime: SqlRuntime;
  connectors: ConnectorRegistry;
}

type RawValues = Record<string, unknown>;

function connectorOf(s: RunServices, definition: DataSourceDefinition) {
  if (!definition.connection) throw notFound('SQL connection', definition.id);
  return s.connectors.get(String(definition.connection.id), definition.connection.settings);
}

/** What running a parameter data source needs: which asset, and which parents' values it takes. */
export interface ParameterSourceRef {
  dataSourceId: string | number;
  dependsOn: readonly string[];
}

/**
 * Runs a parameter data source (an asset of the collection; else undefined) with the values of the parents it depends
 * on, the others left out. The caller reads the result and closes it.
 */
export async function runParameterSource(
  s: RunServices,
  collectionId: number,
  ref: ParameterSourceRef,
  raw: RawValues,
) {
  const source = await loadDefinition(s.db, ref.dataSourceId, s.runtime);
  if (!source || source.collection.id !== collectionId) return undefined;
  const values = Object.fromEntries(ref.dependsOn.filter((name) => name in raw).map((name) => [name, raw[name]]));
  const result = await runQuery({
    connector: connectorOf(s, source),
    sql: source.sql,
    parameters: source.parameters,
    values: values as never,
    transformations: source.transformations,
    rowCap: source.rowCap,
    timeoutMs: source.timeoutMs,
  });
  return { source, result };
}

/** The options of one parameter data source, run with the values of the parents it depends on. */
async function optionsFrom(s: RunServices, collectionId: number, def: ParameterDefinition, raw: RawValues) {
  const allowed = def.allowedValues;
  if (allowed?.kind !== 'dataSource') return undefined;
  const run = await runParameterSource(s, collectionId, allowed, raw);
  if (!run) throw notFound('Data asset', allowed.dataSourceId);
  try {
    return await collectOptions(run.result.rows, allowed, run.source.rowCap);
  } finally {
    await run.result.close();
  }
}

/** Allowed options (value and label) of the parameters backed by a parameter data source, for those given a value. */
export async function parameterOptionLists(
  s: RunServices,
  collectionId: number,
  parameters: readonly ParameterDefinition[],
  raw: RawValues,
): Promise<Record<string, ParameterOption[]>> {
  const entries = await Promise.all(
    parameters
      .filter((def) => def.allowedValues?.kind === 'dataSource' && raw[def.name] !== undefined)
      .map(async (def) => [def.name, (await optionsFrom(s, collectionId, def, raw)) ?? []] as const),
  );
  return Object.fromEntries(entries);
}

/** Allowed values of the parameters backed by a parameter data source, for those the caller gave a value. */
export async function parameterOptions(
  s: RunServices,
  collectionId: number,
  parameters: readonly ParameterDefinition[],
  raw: RawValues,
): Promise<Record<string, unknown[]>> {
  const lists = await parameterOptionLists(s, collectionId, parameters, raw);
  return Object.fromEntries(Object.entries(lists).map(([name, options]) => [name, options.map((o) => o.value)]));
}

/**
 * The value/label options of one parameter of an asset (fixed, or run from its parameter data source with the
 * values of the parents it depends on): what the MCP endpoint offers an agent.
 */
export async function parameterChoices(s: RunServices, collectionId: number, def: ParameterDefinition, raw: RawValues) {
  if (def.allowedValues?.kind === 'fixed') {
    return def.allowedValues.options.map((o) => ({ value: o.value, label: o.label ?? String(o.value) }));
  }
  return (await mapEngineErrors(() => optionsFrom(s, collectionId, def, raw))) ?? [];
}

/** GET /api/DataSource/ParameterData/{id}: value/label options of one parameter (fixed or from its source). */
export async function parameterData(s: RunServices, parameterId: number, raw: RawValues) {
  const row = await findParameterWithCollection(s.db, parameterId);
  if (!row) throw notFound('Parameter', parameterId);
  // Stored definitions were checked on save; parsing fills the engine's defaults.
  const def = storedParameterDefinitionSchema.parse(JSON.parse(row.definition));
  if (def.allowedValues?.kind === 'fixed') {
    return { options: def.allowedValues.options.map((o) => ({ value: o.value, label: o.label ?? String(o.value) })) };
  }
  return { options: (await mapEngineErrors(() => optionsFrom(s, row.collection_id, def, raw))) ?? [] };
}

export interface PreviewInput {
  connectionId: number;
  sql: string;
  parameters: Record<string, unknown>[];
  transformations: { name: string; rules: unknown[] }[];
  values: RawValues;
  rowCap: number;
  timeoutMs: number;
}

/** A row as JSON can carry it: big integers as text, bytes as base64. */
function jsonSafe(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] =
      typeof value === 'bigint'
        ? value.toString()
        : Buffer.isBuffer(value) || value instanceof Uint8Array
          ? Buffer.from(value).toString('base64')
          : value;
  }
  return out;
}

/** A preview's rows, JSON-safe: at most rowCap, then truncated (one more was there). Frees the run either way. */
export async function previewRows(
  result: Pick<QueryResult, 'rows' | 'close'>,
  rowCap: number,
): Promise<{ rows: Row[]; truncated: boolean }> {
  const rows: Row[] = [];
  let truncated = false;
  try {
    for await (const row of result.rows) {
      if (rows.length >= rowCap) {
        truncated = true;
        break;
      }
      rows.push(jsonSafe(row));
    }
  } finally {
    await result.close();
  }
  return { rows, truncated };
}

/** Runs SQL that is not saved yet (read-only like every run), answering at most PREVIEW_ROW_CAP rows. */
export async function preview(s: RunServices, collection: Collection, input: PreviewInput) {
  const connection = await findConnectionRow(s.db, input.connectionId);
  if (!connection || connection.collection_id !== collection.id || connection.kind !== 'sql') {
    throw invalid('connectionId', messages.doesNotExist('SQL connection', input.connectionId));
  }
  const parameters = await checkParameters(s.db, input.parameters, { collectionId: collection.id });
  const transformations = checkTransformations(input.transformations);
  const rowCap = Math.min(input.rowCap, PREVIEW_ROW_CAP);
  const connector = s.connectors.get(String(connection.id), connectorSettings(connection, s.runtime, collection.uid));
  return mapEngineErrors(async () => {
    const parameterOptionsFound = await parameterOptions(s, collection.id, parameters, input.values);
    const result = await runQuery({
      connector,
      sql: input.sql,
      parameters,
      values: input.values as never,
      parameterOptions: parameterOptionsFound,
      transformations,
      rowCap,
      readLimit: rowCap + 1,
      timeoutMs: input.timeoutMs,
    });
    const { rows, truncated } = await previewRows(result, rowCap);
    return {
      columns: result.columns,
      rows,
      truncated,
      durationMs: performance.now() - result.stats.startedAt,
      boundValues: result.stats.boundValues,
    };
  });
}
