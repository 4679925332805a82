import type { HttpExchange } from './http/exchange.ts';
import type { Transformation } from './transformations/schema.ts';

// The connector boundary: whatever the source (SQL today, Web API later), a run yields columns and rows.

export const columnTypes = ['string', 'integer', 'decimal', 'boolean', 'date', 'datetime', 'json', 'binary'] as const;
export type ColumnType = (typeof columnTypes)[number];

export interface Column {
  name: string;
  type: ColumnType;
}

export type Row = Record<string, unknown>;

/**
 * Rows a run has already read whole (its connection is free again): iterable like any rows, and readable at once
 * through `all`, so the stages after it can skip a promise per row (an interactive call of 100 rows spent about a
 * fifth of its CPU handing rows from one async generator to the next).
 */
export interface RowsInMemory extends AsyncIterable<Row> {
  readonly all: readonly Row[];
}

export function rowsInMemory(all: readonly Row[]): RowsInMemory {
  return {
    all,
    async *[Symbol.asyncIterator]() {
      yield* all;
    },
  };
}

export function isInMemory(rows: AsyncIterable<Row>): rows is RowsInMemory {
  return Array.isArray((rows as Partial<RowsInMemory>).all);
}

/** The rows, when they are all in memory already; undefined for rows that stream. */
export function inMemory(rows: AsyncIterable<Row>): readonly Row[] | undefined {
  return isInMemory(rows) ? rows.all : undefined;
}

export interface RowStream {
  columns: Column[];
  rows: AsyncIterable<Row>;
  /**
   * Ends the run early and frees its connection. Needed when the rows are not iterated to the end: a generator
   * that was never started does not run its cleanup on return(). Idempotent.
   */
  close(): Promise<void>;
}

/** What a writer needs: columns and rows (close, when given, is called if writing fails). */
export type RowSource = Pick<RowStream, 'columns' | 'rows'> & Partial<Pick<RowStream, 'close'>>;

export interface RunRequest {
  /** SQL text with `:name` placeholders (or, for other connectors, their own request description). */
  sql: string;
  /** Typed values keyed by parameter name (see validateParameters). */
  values: Record<string, unknown>;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Called once, as soon as the run holds a connection (after any wait at the connector's gate or pool): the time
   * before it was spent queueing, the time after it in the database. A connector that never calls it leaves the
   * queue time unknown (it is then counted as database time).
   */
  onAcquired?: () => void;
  /**
   * The caller reads at most this many rows (an interactive call: its row cap + 1, to tell truncation). A connector
   * may then fetch them in one go and end the run before handing them over; without it, rows stream.
   */
  readLimit?: number;
  /** Web API connectors: called with each upstream exchange (secrets masked), for the developer view. */
  onExchange?: (exchange: HttpExchange) => void;
}

export interface ConnectionTestResult {
  ok: boolean;
  serverVersion: string;
  warnings: string[];
}

export interface SchemaTable {
  schema: string | null;
  name: string;
  columns: { name: string; type: string }[];
}

export interface CopyCsvRequest extends RunRequest {
  /** The declared type of each parameter, so the COPY rewrite can cast current_setting() back. */
  parameterTypes: Record<string, { type: string; list?: boolean }>;
  /** The export stops after this many rows. */
  maxRows: number;
  /** Column rules (select, rename, mask, limit) to apply in the database, in order. */
  transformations?: readonly Transformation[];
}

/** A connector's bounded pool now (its gate): the bound, the runs holding a connection, the runs waiting. */
export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

export interface Connector {
  readonly kind: string;
  /** Runs one read-only statement; rows are pulled lazily, the connection is released when the iteration ends. */
  run(request: RunRequest): Promise<RowStream>;
  testConnection(signal?: AbortSignal): Promise<ConnectionTestResult>;
  listSchema(signal?: AbortSignal): Promise<SchemaTable[]>;
  /**
   * Optional fast path: the whole result as CSV bytes, the request's column rules applied by the database; undefined
   * when it cannot apply one of them exactly as the row path would (the caller then takes the row path).
   */
  copyCsv?(request: CopyCsvRequest): Promise<AsyncIterable<Buffer> | undefined>;
  /** The pool's occupancy, for metrics; undefined for connectors without a pool (or one not opened yet). */
  stats?(): PoolStats | undefined;
  close(): Promise<void>;
}
