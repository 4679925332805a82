import type { Writable } from 'node:stream';
import type { RowSource } from '../types.ts';
import { Sink, type WriteOptions, type WriteStats, capped, jsonRow } from './sink.ts';

/** One JSON object per line ('\n'), no header. */
export async function writeNdjson(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const sink = new Sink(out);
  const state = { truncated: false };
  let rows = 0;
  for await (const row of capped(result.rows, options.maxRows, state)) {
    await sink.push(`${JSON.stringify(jsonRow(result.columns, row))}\n`);
    rows += 1;
  }
  await sink.flush();
  return { rows, bytes: sink.bytes, truncated: state.truncated };
}
