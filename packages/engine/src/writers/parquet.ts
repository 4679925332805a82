import type { Writable } from 'node:stream';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { ColumnType, RowSource } from '../types.ts';
import { type WriteOptions, type WriteStats, capped, writeWithBackpressure } from './sink.ts';
import { parquetTruncationMetadata } from './truncation.ts';

// Parquet (downloads only) through hyparquet-writer's incremental ParquetWriter: rows are gathered into one row
// group of ROW_GROUP_ROWS at a time, written, and the group's bytes go to the Writable before the next one is
// gathered. Memory is bounded by one row group's values and its encoded bytes, whatever the result's length
// (one row group for the whole result, the library's default, held about 340 MB for a million rows).

export const ROW_GROUP_ROWS = 20_000;

type BasicType = 'BOOLEAN' | 'INT64' | 'DOUBLE' | 'STRING' | 'JSON' | 'TIMESTAMP' | 'BYTE_ARRAY';

/** The Parquet type of each column type; dates are written with a DATE schema element (see schemaOf). */
const basicTypes: Record<Exclude<ColumnType, 'date'>, BasicType> = {
  integer: 'INT64',
  // Decimals (PostgreSQL numeric arrives as exact text) become DOUBLE: the engine does not know a column's
  // precision and scale, which Parquet's DECIMAL needs. A double holds 15–17 significant digits.
  decimal: 'DOUBLE',
  boolean: 'BOOLEAN',
  datetime: 'TIMESTAMP',
  json: 'JSON',
  binary: 'BYTE_ARRAY',
  string: 'STRING',
};

const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A timestamp's instant; text without an offset is a UTC wall time (as the JSON writer reports it). */
function toDate(value: unknown, dateOnly: boolean): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  let text = String(value);
  if (dateOnly) text = text.slice(0, 10);
  else if (typeof value === 'string' && !HAS_OFFSET.test(text) && text.includes('T')) text = `${text}Z`;
  // A value the database calls a date but JavaScript cannot read ('infinity', a malformed SQLite text) is null:
  // the JSON and CSV exports keep its text; Parquet's DATE and TIMESTAMP columns cannot hold it.
  const date = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? null : date;
}

function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value !== 0 && value !== 0n;
  if (typeof value === 'string') return /^(t|true|1|yes|y)$/i.test(value.trim());
  return null;
}

function toBigInt(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) return BigInt(value.trim());
  if (typeof value === 'boolean') return value ? 1n : 0n;
  return null;
}

function toDouble(value: unknown): number | null {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isNaN(n) ? null : n;
}

/** A cell as its column's Parquet type takes it; null stays null (every column is OPTIONAL). */
export function parquetCell(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return toBigInt(value);
    case 'decimal':
      return toDouble(value);
    case 'boolean':
      return toBoolean(value);
    case 'date':
      return toDate(value, true);
    case 'datetime':
      return toDate(value, false);
    case 'json':
      // The value as parsed from the database: the writer encodes it as JSON text itself.
      return value;
    case 'binary':
      return value instanceof Uint8Array ? value : new TextEncoder().encode(String(value));
    case 'string':
      if (typeof value === 'string') return value;
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
      return typeof value === 'object' ? JSON.stringify(value, (_k, v: unknown) => jsonSafe(v)) : String(value);
  }
}

const jsonSafe = (value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

function schemaOf(columns: RowSource['columns']) {
  return schemaFromColumnData({
    columnData: columns.map((column) =>
      column.type === 'date'
        ? { name: column.name, data: [] }
        : { name: column.name, data: [], type: basicTypes[column.type], nullable: true },
    ),
    schemaOverrides: Object.fromEntries(
      columns
        .filter((column) => column.type === 'date')
        .map((column) => [
          column.name,
          { name: column.name, type: 'INT32', converted_type: 'DATE', repetition_type: 'OPTIONAL' } as const,
        ]),
    ),
  });
}

/** hyparquet-writer's byte buffer, emptied into the Writable after each row group (it awaits the returned drain). */
class StreamingByteWriter extends ByteWriter {
  readonly #out: Writable;
  written = 0;

  constructor(out: Writable) {
    super(64 * 1024);
    this.#out = out;
  }

  flush(): Promise<void> {
    if (this.index === 0) return Promise.resolve();
    // Copied: the writer reuses its buffer for the next row group.
    const chunk = Buffer.from(new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
    this.written += chunk.length;
    return writeWithBackpressure(this.#out, chunk);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

export async function writeParquet(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const columns = result.columns;
  const bytes = new StreamingByteWriter(out);
  const writer = new ParquetWriter({ writer: bytes, schema: schemaOf(columns), createdBy: 'Data Lab' });
  const state = { truncated: false };
  let group: unknown[][] = columns.map(() => []);
  let inGroup = 0;
  let rows = 0;
  const writeGroup = async () => {
    if (inGroup === 0) return;
    const columnData = columns.map((column, i) => ({ name: column.name, data: group[i]! }));
    await writer.write({ columnData, rowGroupSize: inGroup });
    group = columns.map(() => []);
    inGroup = 0;
  };
  for await (const row of capped(result.rows, options.maxRows, state)) {
    for (let i = 0; i < columns.length; i += 1) {
      const column = columns[i]!;
      group[i]!.push(parquetCell(row[column.name], column.type));
    }
    inGroup += 1;
    rows += 1;
    if (inGroup >= ROW_GROUP_ROWS) await writeGroup();
  }
  await writeGroup();
  // A result cut at the row limit says so in the footer's key-value metadata (read before finish writes it).
  if (state.truncated) writer.kvMetadata = parquetTruncationMetadata(rows, options.maxRows);
  await writer.finish();
  return { rows, bytes: bytes.written, truncated: state.truncated };
}
