import {
  canCopyCsv,
  exportCsv,
  releaseRows,
  runQuery,
  stableValuesKey,
  validateParameters,
  writeJsonResult,
  writeResult,
  type ConnectorRegistry,
  type FileFormat,
  type Format,
  type RunQueryOptions,
} from '@datalab/engine';
import type { Writable } from 'node:stream';
import type { WriteStats } from '@datalab/engine/writers/index';
import type { Database } from '../../db/database.ts';
import { mapEngineErrors } from '../../lib/engine-errors.ts';
import { forbidden, notFound, validation } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { ResultCache } from '../../lib/result-cache.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { decide, effectiveRole } from '../access/policy.ts';
import type { DataSourceDefinition, loadDefinition } from '../data-sources/definition.service.ts';
import { parameterOptionLists } from '../data-sources/run.service.ts';
import type { ExchangeLog } from '../data-sources/web-api-assets.service.ts';
import type { DefinitionCache } from './definitions.ts';

// Download jobs (modules/downloads) run exports the same way, with their own definition cache and file names.
export { DefinitionCache } from './definitions.ts';
export { slug } from './negotiation.ts';
import type { CallTimings } from './server-timing.ts';
import {
  Collector,
  cacheValue,
  fromCacheValue,
  gatedStream,
  jsonReply,
  jsonResult,
  type GatedStream,
  type JsonResult,
} from './results.ts';

// Calling a data asset (product §15): find it, authorize the caller through the one policy (Readers and above call;
// hidden and missing look the same), check the values before anything runs, then answer JSON from the cache or a
// run, or stream an export. No Fastify here: routes.ts adapts requests and replies.

/** What opens a connection's stored settings (the connections module's runtime). */
type SqlRuntime = Parameters<typeof loadDefinition>[2];

export interface CallingDeps {
  db: Database;
  access: AccessModelCache;
  connectors: ConnectorRegistry;
  sqlRuntime: SqlRuntime;
  cache: ResultCache;
  /** MAX_EXPORT_ROWS: the ceiling of any export, whatever a data source allows. */
  maxExportRows: number;
  definitions: DefinitionCache;
}

/** Exports run far longer than an interactive call; the engine's time limit covers the streaming too. */
const EXPORT_TIMEOUT_MS = 15 * 60_000;

const assetNotFound = (uid: string) => notFound('Data asset', uid);

/**
 * The asset when the caller may call it; 404 when it does not exist, cannot be run, or is outside their roles.
 * The time the decision took goes to `timings.authzMs`.
 */
export async function callableAsset(
  deps: CallingDeps,
  user: AuthUser,
  uid: string,
  timings: CallTimings,
): Promise<DataSourceDefinition> {
  const definition = await deps.definitions.load(deps.db, uid, deps.sqlRuntime);
  if (!definition || definition.uid !== uid) throw assetNotFound(uid);
  const started = performance.now();
  const role = await effectiveRole(deps.access, user, definition.collection.id);
  // A visible asset the caller may not call (an administrator without a role) is a 403, as everywhere else.
  const decision = decide(user, role, 'call');
  timings.authzMs = performance.now() - started;
  if (decision === 'hide') throw assetNotFound(uid);
  if (decision === 'forbid') throw forbidden();
  if (!definition.connection) throw assetNotFound(uid);
  return definition;
}

/**
 * Whether the caller writes the collection's assets: an Editor or Owner signed in to the portal. A Data Lab token is
 * never an author here (a program gets what a Reader gets), whatever its role.
 */
export async function isAuthor(deps: CallingDeps, user: AuthUser, collectionId: number): Promise<boolean> {
  if (user.token) return false;
  return decide(user, await effectiveRole(deps.access, user, collectionId), 'editAssets') === 'allow';
}

/**
 * Where a refusal that lists only the first of many allowed values sends the caller for all of them: the
 * parameter's ParameterData call, with its parents' values when it depends on others.
 */
export function allowedValuesAt(definition: Pick<DataSourceDefinition, 'parameters'>): Record<string, string> {
  return Object.fromEntries(
    definition.parameters.map((def) => {
      const parents = def.allowedValues?.kind === 'dataSource' ? def.allowedValues.dependsOn : [];
      const query = parents.length > 0 ? ` (with ${parents.join(', ')} in the query)` : '';
      return [def.name, `GET /api/DataSource/ParameterData/${def.id}${query}`];
    }),
  );
}

/** Typed values, or a 400 with the errors map (product §5 templates): types, bounds, patterns and fixed options. */
export function checkValues(definition: DataSourceDefinition, raw: Record<string, unknown>): Record<string, unknown> {
  const typed = validateParameters(definition.parameters, raw, { moreAt: allowedValuesAt(definition) });
  if (!typed.ok) throw validation(typed.errors);
  return typed.values;
}

/** Whether a parameter takes its options from a parameter data source (then checkOptions has work to do). */
const hasOptionSources = (definition: DataSourceDefinition) =>
  definition.parameters.some((def) => def.allowedValues?.kind === 'dataSource');

/**
 * Checks typed values against the options of their parameter data sources (one run of each source, with the
 * parent values for dependent dropdowns): a 400 before the asset runs. A cache hit skips it: the entry exists only
 * because the same values passed when it was made, and errors are never cached.
 */
export async function checkOptions(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
) {
  if (!hasOptionSources(definition)) return;
  const services = { db: deps.db, runtime: deps.sqlRuntime, connectors: deps.connectors };
  const given = Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0)),
  );
  const lists = await mapEngineErrors(() =>
    parameterOptionLists(services, definition.collection.id, definition.parameters, given),
  );
  const result = validateParameters(definition.parameters, values, {
    options: Object.fromEntries(Object.entries(lists).map(([name, list]) => [name, list.map((o) => o.value)])),
    optionLabels: Object.fromEntries(Object.entries(lists).map(([name, list]) => [name, list.map((o) => o.label)])),
    moreAt: allowedValuesAt(definition),
  });
  if (!result.ok) throw validation(result.errors);
}

function runOptions(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
  timings?: CallTimings,
  exchanges?: ExchangeLog,
): RunQueryOptions {
  const connection = definition.connection;
  if (!connection) throw assetNotFound(definition.uid);
  return {
    ...(exchanges ? { onExchange: exchanges.add } : {}),
    connector: deps.connectors.get(String(connection.id), connection.settings),
    sql: definition.sql,
    parameters: definition.parameters,
    values,
    transformations: definition.transformations,
    rowCap: definition.rowCap,
    timeoutMs,
    ...(signal ? { signal } : {}),
    ...(timings ? { timings } : {}),
  };
}

/** What a JSON reply of a fresh run needs from its caller: when the call started, and its own members. */
interface JsonReplyParts {
  startedAt: number;
  /** Members after `cached` (the developer view's exchanges), asked for once the rows are written. */
  extra?: () => string;
}

async function runJson(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  parts: JsonReplyParts,
  signal?: AbortSignal,
  exchanges?: ExchangeLog,
): Promise<JsonResult> {
  if (hasOptionSources(definition)) await checkOptions(deps, definition, values);
  // The reply holds at most rowCap rows; one more tells truncation. Knowing it, the connector can run in one go.
  const options = runOptions(deps, definition, values, definition.timeoutMs, signal, {}, exchanges);
  // Every stage is timed, row by row: an interactive result stops at the row cap, so that costs next to nothing.
  const result = await runQuery({ ...options, readLimit: definition.rowCap + 1, timeRows: true });
  let extraBytes = 0;
  const extra = parts.extra;
  try {
    // Written as this call's reply, whole: a call served later from the cache gets its own closing members.
    const writeOptions = {
      maxRows: definition.rowCap,
      startedAt: parts.startedAt,
      ...(extra && {
        extra: () => {
          const text = extra();
          extraBytes = Buffer.byteLength(text);
          return text;
        },
      }),
    };
    // Rows in memory are written at once; rows that stream (a transformation that reads them all) through a Writable.
    const written = writeJsonResult(result, writeOptions);
    if (written) return jsonResult(written.body, written.stats, result.stats.timings, extraBytes);
    const collector = new Collector();
    const stats = await writeResult('json', result, collector, writeOptions);
    return jsonResult(collector.bytes(), stats, result.stats.timings, extraBytes);
  } finally {
    releaseRows(result.rows);
  }
}

/**
 * The cache key: the asset, its version (an edit makes old entries unreachable), the normalised values — and
 * whatever about the caller changes the result. Nothing does today: every caller who may call an asset gets the
 * same rows. Tokens with narrowed roles or row-level rules would add their part here.
 */
export const resultsKey = (definition: DataSourceDefinition, values: Record<string, unknown>) =>
  `results:${definition.id}:${definition.version}:${stableValuesKey(values)}`;

export interface JsonCall {
  body: Buffer;
  rows: number;
  truncated: boolean;
  /** Served without a run of its own: from the cache, or from a simultaneous identical call's run. */
  cached: boolean;
}

/**
 * An interactive JSON call: stops at the row cap. With a cache TTL the reply comes from the cache when it can,
 * and simultaneous identical calls share one run; a truncated result is never cached (errors never reach it).
 * Where the time went goes to `timings`: a shared run's stages are those of the run the call waited for.
 */
export async function callJson(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  startedAt: number,
  timings: CallTimings,
  signal?: AbortSignal,
  exchanges?: ExchangeLog,
): Promise<JsonCall> {
  const ttlMs = definition.cacheTtlSeconds * 1000;
  // The developer view: this call's own upstream exchanges (none when another run's result was served).
  const parts: JsonReplyParts = {
    startedAt,
    ...(exchanges ? { extra: () => exchangeMembers(exchanges.view()) } : {}),
  };
  const reply = (result: JsonResult, cached: boolean): JsonCall => {
    Object.assign(timings, result.timings);
    const replyStartedAt = performance.now();
    // A fresh run wrote this call's reply already; a result served again gets its own closing members.
    const extra = exchanges && cached ? exchangeMembers({ exchanges: [], exchangesOmitted: 0 }) : '';
    const body = cached ? jsonReply(result, replyStartedAt - startedAt, cached, extra) : result.body;
    timings.writeMs = (timings.writeMs ?? 0) + (performance.now() - replyStartedAt);
    return { body, rows: result.rows, truncated: result.truncated, cached };
  };
  if (ttlMs <= 0) return reply(await runJson(deps, definition, values, parts, signal, exchanges), false);
  const key = resultsKey(definition, values);
  const lookupStartedAt = performance.now();
  const hit = await deps.cache.get(key);
  timings.cacheMs = performance.now() - lookupStartedAt;
  if (hit) return reply(fromCacheValue(hit.value), true);
  // A shared run is not tied to one caller's connection: it ends by itself or by the data source's time limit.
  const { value, shared } = await deps.cache.coalesce(key, async () => {
    const result = await runJson(deps, definition, values, parts, undefined, exchanges);
    if (!result.truncated) await deps.cache.set(key, 'results', cacheValue(result), ttlMs);
    return result;
  });
  return reply(value, shared);
}

/** The exchanges as members of the JSON reply (EXCHANGE_HEADER in the contract). */
function exchangeMembers(view: { exchanges: unknown[]; exchangesOmitted: number }): string {
  return `,"exchanges":${JSON.stringify(view.exchanges)},"exchangesOmitted":${view.exchangesOmitted}`;
}

/** The most rows an export of this asset streams. */
export function exportRowLimit(deps: CallingDeps, definition: DataSourceDefinition): number {
  const own = definition.maxExportRows > 0 ? definition.maxExportRows : deps.maxExportRows;
  return Math.min(own, deps.maxExportRows);
}

/** How an export run reports on itself (downloads follow its rows; the calling layer its timings). */
export interface ExportRun {
  signal?: AbortSignal;
  timings?: CallTimings;
  /** Called once the rows start (not on the COPY path): `progress.rows` counts the rows read so far. */
  onRun?: (progress: { readonly rows: number }) => void;
}

/**
 * Runs an export into `out` and ends it: the whole result up to the export limit, with backpressure. CSV with no
 * row-changing transformation takes the connector's COPY path when it has one. The calling layer's exports and
 * download jobs both run here, so they share the engine path, the transformations and the limits.
 */
export async function runExport(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  format: FileFormat,
  out: Writable,
  run: ExportRun = {},
): Promise<WriteStats> {
  const timeoutMs = Math.max(definition.timeoutMs, EXPORT_TIMEOUT_MS);
  // Queue and database to the first rows are known before the first byte; the stages after are not timed.
  const options = runOptions(deps, definition, values, timeoutMs, run.signal, run.timings);
  const maxRows = exportRowLimit(deps, definition);
  if (format === 'csv' && canCopyCsv(options)) return exportCsv(options, out, maxRows);
  const result = await runQuery(options);
  run.onRun?.(result.stats);
  return writeResult(format, result, out, { maxRows, sheetName: definition.name.slice(0, 31) || 'Data' });
}

/**
 * An export (CSV, NDJSON, XLSX) as a call's reply: the values' options checked first, then runExport into a
 * stream. Resolves once the first bytes exist, when `timings` holds the wait for a connection and the database's
 * time to the first rows.
 */
export async function callExport(
  deps: CallingDeps,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  format: Exclude<Format, 'json'>,
  timings: CallTimings,
  signal?: AbortSignal,
): Promise<GatedStream> {
  await checkOptions(deps, definition, values);
  const gated = gatedStream((out) =>
    runExport(deps, definition, values, format, out, { timings, ...(signal ? { signal } : {}) }),
  );
  await gated.ready;
  return gated;
}
