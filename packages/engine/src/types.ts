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
 * fifth of its CPU handing rows from one async generator to the next). `count` is their number.
 */
export interface RowsInMemory extends AsyncIterable<Row> {
  readonly all: readonly Row[];
  readonly count: number;
  /**
   * Empties the rows (no one reads them after this). A run's promises and frames waited for the database, so the
   * young-generation collector has often moved them to the old generation by the time the rows arrive; whatever
   * they point to then survives every young collection until the next full one, dead or not. Emptying the array
   * they share lets the rows go young (a Q100 call's 600 cell texts were most of what V8 promoted).
   */
  release(): void;
}

/** Rows in memory; `all` is theirs from now on (release() empties it, and releases `source`, the rows they came from). */
class ArrayRows implements RowsInMemory {
  readonly all: Row[];
  readonly #source: RowsInMemory | undefined;

  constructor(all: Row[], source?: RowsInMemory) {
    this.all = all;
    this.#source = source;
  }

  get count(): number {
    return this.all.length;
  }

  release(): void {
    this.all.length = 0;
    this.#source?.release();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Row> {
    yield* this.all;
  }
}

export function rowsInMemory(all: Row[], source?: RowsInMemory): RowsInMemory {
  return new ArrayRows(all, source);
}

/**
 * How a column's database text is written as JSON without a typed value in between (the text is what the
 * connector's parser would turn into that value): `digits` as it is (a number), `bigint` as a number when it is a
 * safe integer and as text otherwise, `text` as a JSON string, `timestamp` as ISO 8601 text (PostgreSQL's
 * '2024-01-02 03:04:05+00' → '2024-01-02T03:04:05+00:00'), `boolean` from 't' or 'f'.
 */
export type CellText = 'digits' | 'bigint' | 'text' | 'timestamp' | 'boolean';

/** PostgreSQL's timestamp text as ISO 8601, as the `timestamp` cell text writes it; infinity stays as it is. */
export function timestampText(value: string): string {
  // A sign three characters from the end is an hours-only offset (PostgreSQL writes '+05:30' whole); no regular
  // expression per cell.
  const iso = value.replace(' ', 'T');
  const sign = iso.charCodeAt(iso.length - 3);
  return sign === 43 || sign === 45 ? `${iso}:00` : iso;
}

/**
 * Rows in memory as the database sent them: one text (or null) per column. The JSON writer writes them as they are
 * (an interactive call's rows never become values); `all` makes the typed rows, once, for whatever else reads them.
 * Typed rows have one key per distinct column name, in the order names first appear, holding the value of the last
 * column of that name (as pg's own rows do).
 */
export class TextRows implements RowsInMemory {
  readonly texts: (readonly (string | null)[])[];
  /** Per column: how its text is written as JSON; undefined where only the typed value can be (through `all`). */
  readonly cellTexts: readonly (CellText | undefined)[];
  readonly #columns: readonly Column[];
  /** `parsers[i]` types column i's text. */
  readonly #parsers: readonly ((text: string) => unknown)[];
  #typed: Row[] | undefined;

  constructor(
    columns: readonly Column[],
    texts: (readonly (string | null)[])[],
    parsers: readonly ((text: string) => unknown)[],
    cellTexts: readonly (CellText | undefined)[],
  ) {
    this.#columns = columns;
    this.texts = texts;
    this.#parsers = parsers;
    this.cellTexts = cellTexts;
  }

  get count(): number {
    return this.texts.length;
  }

  get all(): Row[] {
    this.#typed ??= this.#typeAll();
    return this.#typed;
  }

  #typeAll(): Row[] {
    const names = this.#columns.map((column) => column.name);
    const parsers = this.#parsers;
    return this.texts.map((cells) => {
      const row: Row = {};
      for (let i = 0; i < names.length; i += 1) {
        const text = cells[i];
        row[names[i]!] = text === null || text === undefined ? null : parsers[i]!(text);
      }
      return row;
    });
  }

  release(): void {
    this.texts.length = 0;
    if (this.#typed) this.#typed.length = 0;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Row> {
    yield* this.all;
  }
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Rows in memory as a JSON reply held them (a Web API page the connector scanned, http/json-scan.ts): row i is the
 * object at data[starts[i], ends[i]), on one line, its keys exactly `names` in that order. The JSON writer copies
 * those bytes as they are; `all` parses them, once, for whatever else reads them.
 */
export class JsonRows implements RowsInMemory {
  #data: Buffer;
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  readonly names: readonly string[];
  #count: number;
  #parsed: Row[] | undefined;

  constructor(
    data: Buffer,
    starts: readonly number[],
    ends: readonly number[],
    names: readonly string[],
    count: number,
  ) {
    this.#data = data;
    this.starts = starts;
    this.ends = ends;
    this.names = names;
    this.#count = Math.min(count, starts.length);
  }

  get data(): Buffer {
    return this.#data;
  }

  get count(): number {
    return this.#count;
  }

  get all(): Row[] {
    this.#parsed ??= this.#parse();
    return this.#parsed;
  }

  /** The rows' bytes from the first to the last kept one hold only commas and spaces between them. */
  #parse(): Row[] {
    if (this.#count === 0) return [];
    const text = this.#data.toString('utf8', this.starts[0], this.ends[this.#count - 1]);
    return JSON.parse(`[${text}]`) as Row[];
  }

  release(): void {
    this.#count = 0;
    this.#data = NO_BYTES;
    if (this.#parsed) this.#parsed.length = 0;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Row> {
    yield* this.all;
  }
}

export function isInMemory(rows: AsyncIterable<Row>): rows is RowsInMemory {
  return rows instanceof ArrayRows || rows instanceof TextRows || rows instanceof JsonRows;
}

/** Empties rows held in memory once nothing reads them any more (see RowsInMemory.release); others are left. */
export function releaseRows(rows: AsyncIterable<Row>): void {
  if (isInMemory(rows)) rows.release();
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
  /** The most rows COPY sends (exportCsv asks for one more than the file holds, to tell a longer result). */
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
