import type { Writable } from 'node:stream';
import type { RowSource } from '../types.ts';
import { Sink, type WriteOptions, type WriteStats, jsonRow, writeRowTexts } from './sink.ts';

// { columns: [{ name, type }], rows: [{…}], truncated, durationMs, cached }, streamed row by row. truncated and
// durationMs come last, once the rows are out. Each row starts a line, and so does the `]` after the last one, so a
// reader can take the reply apart at line breaks (the portal parses 100,000 rows a slice at a time that way); a
// raw line break never occurs inside JSON text (JSON.stringify escapes it), and the whole stays the same valid JSON
// for every other client.

export async function writeJson(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const sink = new Sink(out);
  const state = { truncated: false };
  const columns = result.columns.map((c) => ({ name: c.name, type: c.type }));
  await sink.push(`{"columns":${JSON.stringify(columns)},"rows":[`);
  const rows = await writeRowTexts(sink, result.rows, options.maxRows, state, (row, index) => {
    const line = JSON.stringify(jsonRow(result.columns, row));
    return index === 0 ? `\n${line}` : `,\n${line}`;
  });
  const durationMs = options.startedAt === undefined ? 0 : Math.round(performance.now() - options.startedAt);
  await sink.push(`\n],"truncated":${state.truncated},"durationMs":${durationMs},"cached":${options.cached === true}}`);
  await sink.flush();
  return { rows, bytes: sink.bytes, truncated: state.truncated };
}
