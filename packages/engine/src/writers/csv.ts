import type { Writable } from 'node:stream';
import type { ColumnType, RowSource } from '../types.ts';
import { Sink, type WriteOptions, type WriteStats, jsonCell, writeRowTexts } from './sink.ts';
import { csvTruncationLine } from './truncation.ts';

// RFC 4180: a header row, CRLF line ends, fields quoted when they hold a quote, comma, CR or LF. A text cell that
// a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading ' (OWASP's advice);
// numeric columns are left alone so negative numbers stay numbers. A null is an empty field and an empty text is
// "" (as PostgreSQL's COPY writes them), so the two stay apart. A result cut at the row limit ends with one marked
// record (truncation.ts).

const needsQuotes = /[",\r\n]/;
const formulaStart = /^[=+\-@\t\r]/;
const textTypes = new Set<ColumnType>(['string', 'json', 'date', 'datetime', 'binary']);

/** A text a spreadsheet would run as a formula, with the leading ' that makes it plain text; others as they are. */
export function formulaSafe(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

export function csvField(value: unknown, type: ColumnType): string {
  const cell = jsonCell(value);
  if (cell === null) return '';
  let text = typeof cell === 'object' ? JSON.stringify(cell) : String(cell);
  if (text === '') return '""';
  if (textTypes.has(type)) text = formulaSafe(text);
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function writeCsv(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const sink = new Sink(out);
  const state = { truncated: false };
  const columns = result.columns;
  await sink.push(`${columns.map((c) => csvField(c.name, 'string')).join(',')}\r\n`);
  const rows = await writeRowTexts(sink, result.rows, options.maxRows, state, (row) => {
    let line = '';
    for (let i = 0; i < columns.length; i += 1) {
      const column = columns[i]!;
      line += (i === 0 ? '' : ',') + csvField(row[column.name], column.type);
    }
    return `${line}\r\n`;
  });
  if (state.truncated) await sink.push(csvTruncationLine(columns.length, options.maxRows));
  await sink.flush();
  return { rows, bytes: sink.bytes, truncated: state.truncated };
}
