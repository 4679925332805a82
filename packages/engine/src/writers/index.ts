import type { Writable } from 'node:stream';
import type { RowSource } from '../types.ts';
import { CrlfRecordEnds } from './crlf.ts';
import { writeCsv } from './csv.ts';
import { writeJson, writeNdjson } from './json.ts';

import { type WriteOptions, type WriteStats, waitForDrain } from './sink.ts';
import { writeXlsx } from './xlsx.ts';

export type { WriteOptions, WriteStats } from './sink.ts';

/** The formats a call answers in (the calling layer negotiates among these). */
export const formats = ['json', 'csv', 'ndjson', 'xlsx'] as const;
export type Format = (typeof formats)[number];

/** The formats a file is written in: a call's, and Parquet, which only download jobs write (DESIGN §6). */
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
  // Loaded on the first Parquet download: hyparquet-writer is for download jobs only (DESIGN §6).
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
    const stats = await writers[format](result, out, options);
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

/** CSV bytes from a connector's COPY fast path, passed through with backpressure (rows: -1, not counted). */
export async function writeCopiedCsv(chunks: AsyncIterable<Buffer>, out: Writable): Promise<WriteStats> {
  let bytes = 0;
  const records = new CrlfRecordEnds();
  try {
    for await (const raw of chunks) {
      const chunk = records.convert(raw);
      bytes += chunk.length;
      if (!out.write(chunk)) await waitForDrain(out);
    }
    await new Promise<void>((resolve) => out.end(resolve));
    return { rows: -1, bytes, truncated: false };
  } catch (error) {
    out.destroy(); // cut off: the caller gets the error from the promise
    throw error;
  }
}
