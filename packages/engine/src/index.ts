import type { Writable } from 'node:stream';
import { EngineError } from './errors.ts';
import { type ParameterDefinition } from './parameters/schema.ts';
import { type RawValues, assertParameters } from './parameters/values.ts';
import { applyTransformations } from './transformations/apply.ts';
import type { Transformation, TransformationInput } from './transformations/schema.ts';
import type { Column, Connector, Row } from './types.ts';
import { type Format, type WriteStats, writeCopiedCsv, writeRows } from './writers/index.ts';

// The engine's public API: run a query (parameters checked, values bound, transformations applied) and write the
// result in a format. Everything else is reachable through '@datalab/engine/<path>'.

export { EngineError, isEngineError, type EngineErrorCode } from './errors.ts';
export type { Column, ColumnType, Connector, Row, RowStream } from './types.ts';
export { ConnectorRegistry, createConnector, type ConnectorSettings } from './registry.ts';
export { validateParameters, assertParameters } from './parameters/values.ts';
export {
  parameterDefinitionSchema,
  parameterDefinitionsSchema,
  type ParameterDefinition,
} from './parameters/schema.ts';
export { openApiQueryParameters, parametersJsonSchema } from './parameters/openapi.ts';
export { collectOptions, stableValuesKey } from './parameters/options.ts';
export { detectParameters } from './sql/scan.ts';
export { transformationsSchema, ruleSchema, type Transformation } from './transformations/schema.ts';
export { applyTransformations, parseTransformations } from './transformations/apply.ts';
export { formats, contentTypes, type Format } from './writers/index.ts';

export interface RunQueryOptions {
  connector: Connector;
  sql: string;
  /** The data source's parameter definitions. */
  parameters?: readonly ParameterDefinition[];
  /** Raw values (query string or JSON body); checked before anything runs. */
  values?: RawValues;
  /** Allowed values of parameters backed by a parameter data source, fetched by the caller. */
  parameterOptions?: Record<string, unknown[]>;
  transformations?: readonly (Transformation | TransformationInput)[];
  /** The data source's row cap: interactive JSON stops here; a sort rule holds at most this many rows. */
  rowCap: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RunStats {
  startedAt: number;
  /** Until the columns were known: queue + connect + the database's first batch. */
  firstRowMs: number;
  /** Rows handed on so far. */
  rows: number;
  /** The typed values that were bound (for the developer view; never spliced into the SQL). */
  boundValues: Record<string, unknown>;
}

export interface QueryResult {
  columns: Column[];
  rows: AsyncIterable<Row>;
  stats: RunStats;
  /** Frees the connection when the rows are not read to the end (writeResult does it for you). */
  close(): Promise<void>;
}

export async function runQuery(options: RunQueryOptions): Promise<QueryResult> {
  const startedAt = performance.now();
  const values = assertParameters(options.parameters ?? [], options.values ?? {}, {
    options: options.parameterOptions ?? {},
  });
  const source = await options.connector.run({
    sql: options.sql,
    values,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  let transformed = source;
  if (options.transformations && options.transformations.length > 0) {
    try {
      transformed = applyTransformations(source, options.transformations, { sortLimit: options.rowCap });
    } catch (error) {
      await source.close();
      throw error;
    }
  }
  const stats: RunStats = { startedAt, firstRowMs: performance.now() - startedAt, rows: 0, boundValues: values };
  async function* counted(): AsyncGenerator<Row> {
    for await (const row of transformed.rows) {
      stats.rows += 1;
      yield row;
    }
  }
  return { columns: transformed.columns, rows: counted(), stats, close: transformed.close };
}

export interface WriteResultOptions {
  /** JSON: the row cap (then truncated: true). CSV/NDJSON/XLSX: the configured export maximum. */
  maxRows: number;
  cached?: boolean;
  sheetName?: string;
}

/** Writes a result to the Writable (awaiting 'drain') and ends it. */
export function writeResult(
  format: Format,
  result: QueryResult,
  out: Writable,
  options: WriteResultOptions,
): Promise<WriteStats> {
  return writeRows(format, result, out, { ...options, startedAt: result.stats.startedAt });
}

/** Whether exportCsv may take the connector's COPY path: no transformation needs the rows. */
export function canCopyCsv(options: Pick<RunQueryOptions, 'connector' | 'transformations'>): boolean {
  return options.connector.copyCsv !== undefined && (options.transformations ?? []).every((t) => t.rules.length === 0);
}

/**
 * The whole result as CSV: through the connector's COPY fast path when it has one and no transformation applies,
 * otherwise through runQuery and the CSV writer. Values stay bound either way.
 */
export async function exportCsv(options: RunQueryOptions, out: Writable, maxRows: number): Promise<WriteStats> {
  if (!canCopyCsv(options)) return writeResult('csv', await runQuery(options), out, { maxRows });
  const definitions = options.parameters ?? [];
  const values = assertParameters(definitions, options.values ?? {}, { options: options.parameterOptions ?? {} });
  const parameterTypes = Object.fromEntries(definitions.map((d) => [d.name, { type: d.type, list: d.list }]));
  const copy = options.connector.copyCsv;
  if (!copy) throw new EngineError('QUERY_FAILED');
  const chunks = await copy({
    sql: options.sql,
    values,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    parameterTypes,
    maxRows,
  });
  return writeCopiedCsv(chunks, out);
}
