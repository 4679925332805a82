import type { Writable } from 'node:stream';
import type { RowSource } from '../types.ts';
import { CrlfRecordEnds } from './crlf.ts';
import { writeCsv } from './csv.ts';
import { writeJson, writeNdjson } from './json.ts';

import { type WriteOptions, type WriteStats, waitForDrain } from './sink.ts';
import { csvTruncationLine } from './truncation.ts';
import { writeXlsx } from './xlsx.ts';

export type { WriteOptions, WriteStats } from './sink.ts';

/** The formats a call answers in (the calling layer negotiates among these). */
export const formats = ['json', 'csv', 'ndjson', 'xlsx'] as const;
export type Format = (typeof formats)[number];

/** The formats a file is written in: a call's, and Parquet, which only download jobs write (product §15). */
export const fileFormats = [...formats, 'parquet'] as const;
export type FileFormat = (typeof fileFormats)[number];

export const contentTypes: Record<FileFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  parquet: 'application/vnd.apache.parquet',
};

const writers: Record<FileFormat, (result: RowSource, out: Writable, options: WriteOptions) => Promise<WriteStats>> = {
  json: writeJson,
  csv: writeCsv,
  ndjson: writeNdjson,
  xlsx: writeXlsx,
  // Loaded on the first Parquet download: hyparquet-writer is for download jobs only (product §15).
  parquet: async (result, out, options) => (await import('./parquet.ts')).writeParquet(result, out, options),
};

/**
 * Writes the result in the format and ends the Writable. On a failure mid-stream the Writable is destroyed (the
 * client sees a cut-off body, not a well-formed partial file) and the error is rethrown.
 */
export async function writeRows(
  format: FileFormat,
  result: RowSource,
  out: Writable,
  options: WriteOptions,
): Promise<WriteStats> {
  try {
    const write = format === 'xlsx' && options.xlsxWriter ? options.xlsxWriter : writers[format];
    const stats = await write(result, out, options);
    if (!out.writableEnded)
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    return stats;
  } catch (error) {
    out.destroy(); // cut off: the caller gets the error from the promise
    await result.close?.().catch(() => undefined);
    throw error;
  }
}

/**
 * CSV bytes from a connector's COPY fast path (asked for `maxRows + 1` rows), passed through with backpressure: the
 * header and at most `maxRows` records, then, when there was more, the marked last record (truncation.ts).
 */
export async function writeCopiedCsv(
  chunks: AsyncIterable<Buffer>,
  out: Writable,
  maxRows: number,
): Promise<WriteStats> {
  let bytes = 0;
  const records = new CrlfRecordEnds(maxRows + 1);
  const write = async (chunk: Buffer) => {
    bytes += chunk.length;
    if (!out.write(chunk)) await waitForDrain(out);
  };
  try {
    // Read to the end (one row at most past the limit), so the COPY finishes rather than being cancelled.
    for await (const raw of chunks) {
      const chunk = records.convert(raw);
      if (chunk.length > 0) await write(chunk);
    }
    const truncated = records.overflow;
    if (truncated) await write(Buffer.from(csvTruncationLine(records.headerFields, maxRows), 'utf8'));
    await new Promise<void>((resolve) => out.end(resolve));
    return { rows: Math.max(0, records.records - 1), bytes, truncated };
  } catch (error) {
    out.destroy(); // cut off: the caller gets the error from the promise
    throw error;
  }
}
