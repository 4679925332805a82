import type { Writable } from 'node:stream';
import { EngineError } from './errors.ts';
import { type ParameterDefinition } from './parameters/schema.ts';
import { type RawValues, assertParameters } from './parameters/values.ts';
import { applyTransformations, parseTransformations } from './transformations/apply.ts';
import type { Transformation, TransformationInput } from './transformations/schema.ts';
import { RunClock, runClocks, type RunTimings } from './timings.ts';
import { isInMemory, type Column, type Connector, type Row, type RunRequest } from './types.ts';
import { type FileFormat, type WriteStats, writeCopiedCsv, writeRows } from './writers/index.ts';
import { jsonInMemory } from './writers/json.ts';

// The engine's public API: run a query (parameters checked, values bound, transformations applied) and write the
// result in a format. Everything else is reachable through '@datalab/engine/<path>'.

export { EngineError, isEngineError, type EngineErrorCode } from './errors.ts';
export {
  describeConnectFailure,
  type ConnectFailure,
  type ConnectFailureReason,
  type ConnectTarget,
} from './connectors/connect-errors.ts';
export type { Column, ColumnType, Connector, PoolStats, Row, RowStream, RowsInMemory } from './types.ts';
export { inMemory, isInMemory, releaseRows, rowsInMemory } from './types.ts';
export {
  ConnectorRegistry,
  createConnector,
  type AnyConnectorSettings,
  type ConnectorSettings,
  type HttpConnectorSettings,
} from './registry.ts';
export { validateParameters, assertParameters } from './parameters/values.ts';
export {
  parameterDefinitionSchema,
  parameterDefinitionsSchema,
  storedParameterDefinitionSchema,
  type ParameterDefinition,
} from './parameters/schema.ts';
export {
  openApiQueryParameters,
  parameterJsonSchema,
  parametersJsonSchema,
  type JsonSchema,
} from './parameters/openapi.ts';
export { collectOptions, stableValuesKey, type ParameterOption } from './parameters/options.ts';
export { detectParameters } from './sql/scan.ts';
export { transformationsSchema, ruleSchema, type Transformation } from './transformations/schema.ts';
export { applyTransformations, parseTransformations } from './transformations/apply.ts';
export { formats, fileFormats, contentTypes, type Format, type FileFormat } from './writers/index.ts';
export type { RunTimings } from './timings.ts';
export { createHttpConnector, type HttpConnector, type HttpTestResult } from './http/connector.ts';
export { httpSettingsSchema, type HttpSettings } from './http/settings.ts';
export { credentialSchema, type Credential } from './http/credentials.ts';
export {
  detectTemplateParameters,
  httpRequestSchema,
  httpRequestText,
  type HttpRequestInput,
} from './http/template.ts';
export type { HttpExchange } from './http/exchange.ts';
export type { ResolvedAddress, Resolver } from './http/guard.ts';
export { SqlHostGuard } from './connectors/guarded-socket.ts';
export { describeSqlHostList, parseSqlHostList, type SqlHostEntry, type SqlHostList } from './connectors/sql-hosts.ts';

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
  /** Filled in with where the run's time went (queue and database until the first rows; the rest with timeRows). */
  timings?: RunTimings;
  /** Also splits each row's time between the database, the transformations and the writer (a few clock reads a row). */
  timeRows?: boolean;
  /**
   * The caller reads at most this many rows (interactive JSON: rowCap + 1). Passed to the connector, which may then
   * fetch them in one go, when no rule needs more source rows than it yields (filter and sort do).
   */
  readLimit?: number;
  /** Web API data sources: each upstream exchange, secrets masked (developer view, Try). */
  onExchange?: RunRequest['onExchange'];
}

/** Rules after which N output rows never need more than N source rows. */
const rowBoundedRules = new Set(['select', 'rename', 'mask', 'cast', 'format', 'computed', 'limit']);

function sourceReadLimit(options: RunQueryOptions): number | undefined {
  if (options.readLimit === undefined) return undefined;
  const bounded = (options.transformations ?? []).every((t) => t.rules.every((rule) => rowBoundedRules.has(rule.type)));
  return bounded ? options.readLimit : undefined;
}

export interface RunStats {
  startedAt: number;
  /** Until the columns were known: queue + connect + the database's first batch. */
  firstRowMs: number;
  /** Rows handed on so far. */
  rows: number;
  /** The typed values that were bound (for the developer view; never spliced into the SQL). */
  boundValues: Record<string, unknown>;
  /** Where the time went so far (the options' timings object when one was given). */
  timings: RunTimings;
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
  const readLimit = sourceReadLimit(options);
  const clock = new RunClock(options.timings, options.timeRows);
  const source = await options.connector.run({
    sql: options.sql,
    values,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onAcquired: clock.acquired,
    ...(readLimit === undefined ? {} : { readLimit }),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  clock.firstRows();
  let transformed = source;
  const transformations = options.transformations ?? [];
  const hasRules = transformations.length > 0;
  const transformStartedAt = performance.now();
  if (hasRules) {
    try {
      transformed = applyTransformations(clock.source(source), transformations, { sortLimit: options.rowCap });
    } catch (error) {
      await source.close();
      throw error;
    }
  }
  const stats: RunStats = {
    startedAt,
    firstRowMs: performance.now() - startedAt,
    rows: 0,
    boundValues: values,
    timings: clock.timings,
  };
  runClocks.set(stats, clock);
  // Rows in memory were transformed at once, just now; rows that stream are transformed (and counted) as read.
  const rows = isInMemory(transformed.rows)
    ? clock.readInMemory(transformed.rows, performance.now() - transformStartedAt, (count) => {
        stats.rows += count;
      })
    : clock.read(transformed.rows, hasRules, () => (stats.rows += 1));
  return { columns: transformed.columns, rows, stats, close: transformed.close };
}

export interface WriteResultOptions {
  /** JSON: the row cap (then truncated: true). CSV/NDJSON/XLSX: the configured export maximum. */
  maxRows: number;
  cached?: boolean;
  sheetName?: string;
  /** JSON: what durationMs counts from (performance.now()); the run's start by default. */
  startedAt?: number;
  /** JSON: members added after `cached`, asked for once the rows are written. */
  extra?: () => string;
}

/** Writes a result to the Writable (awaiting 'drain') and ends it. */
export function writeResult(
  format: FileFormat,
  result: QueryResult,
  out: Writable,
  options: WriteResultOptions,
): Promise<WriteStats> {
  const clock = runClocks.get(result.stats);
  const started = performance.now();
  const written = writeRows(format, result, out, {
    ...options,
    startedAt: options.startedAt ?? result.stats.startedAt,
  });
  // Only a run that times its rows waits for the writer's time (an export settles exactly as it did before).
  if (!clock?.timesRows) return written;
  return written.then((stats) => {
    clock.wrote(performance.now() - started);
    return stats;
  });
}

/**
 * A JSON reply written at once when the result's rows are in memory (an interactive call stops at its row cap):
 * the bytes writeResult('json', …) would write, with no Writable; undefined for rows that stream.
 */
export function writeJsonResult(
  result: QueryResult,
  options: Omit<WriteResultOptions, 'sheetName'>,
): { body: Buffer; stats: WriteStats } | undefined {
  const clock = runClocks.get(result.stats);
  const started = performance.now();
  let written: ReturnType<typeof jsonInMemory>;
  try {
    written = jsonInMemory(result, { ...options, startedAt: options.startedAt ?? result.stats.startedAt });
  } catch (error) {
    void result.close?.().catch(() => undefined);
    throw error;
  }
  if (written && clock?.timesRows) clock.wrote(performance.now() - started);
  return written;
}

/** Rules that change columns, never which rows come (limit only ends early): a COPY path may run them in SQL. */
const copyRules = new Set(['select', 'rename', 'mask', 'limit']);

/** Whether exportCsv may try the connector's COPY path: only column rules, which the database can apply. */
export function canCopyCsv(options: Pick<RunQueryOptions, 'connector' | 'transformations'>): boolean {
  return (
    options.connector.copyCsv !== undefined &&
    (options.transformations ?? []).every((t) => t.rules.every((rule) => copyRules.has(rule.type)))
  );
}

/**
 * The whole result as CSV: through the connector's COPY fast path when it has one and can apply the transformations
 * exactly, otherwise through runQuery and the CSV writer. Values stay bound either way. `path: 'rows'` takes the row
 * path whatever the connector can do — the path the COPY bytes are held to (postgres.int.test.ts).
 */
export async function exportCsv(
  options: RunQueryOptions,
  out: Writable,
  maxRows: number,
  path: 'copy' | 'rows' = 'copy',
): Promise<WriteStats> {
  if (path === 'rows' || !canCopyCsv(options)) return writeResult('csv', await runQuery(options), out, { maxRows });
  const definitions = options.parameters ?? [];
  const values = assertParameters(definitions, options.values ?? {}, { options: options.parameterOptions ?? {} });
  const parameterTypes = Object.fromEntries(definitions.map((d) => [d.name, { type: d.type, list: d.list }]));
  const copy = options.connector.copyCsv;
  if (!copy) throw new EngineError('QUERY_FAILED');
  const clock = new RunClock(options.timings);
  const chunks = await copy({
    sql: options.sql,
    values,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onAcquired: clock.acquired,
    parameterTypes,
    // One row more than the file holds tells whether the result was longer (writeCopiedCsv marks the cut).
    maxRows: maxRows + 1,
    transformations: parseTransformations(options.transformations ?? []),
  });
  if (!chunks) return writeResult('csv', await runQuery(options), out, { maxRows });
  return writeCopiedCsv(options.timings ? clock.firstChunk(chunks) : chunks, out, maxRows);
}
