import type { Writable } from 'node:stream';
import type { RowSource } from '../types.ts';
import { Sink, type WriteOptions, type WriteStats, jsonRow, writeRowTexts } from './sink.ts';

/** One JSON object per line ('\n'), no header. */
export async function writeNdjson(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const sink = new Sink(out);
  const state = { truncated: false };
  const rows = await writeRowTexts(
    sink,
    result.rows,
    options.maxRows,
    state,
    (row) => `${JSON.stringify(jsonRow(result.columns, row))}\n`,
  );
  await sink.flush();
  return { rows, bytes: sink.bytes, truncated: state.truncated };
}
