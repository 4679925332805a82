import { PassThrough, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { ColumnType, RowSource } from '../types.ts';
import { type WriteOptions, type WriteStats, capped, jsonCell, waitForDrain } from './sink.ts';

// XLSX through exceljs's streaming WorkbookWriter: each row is committed at once (nothing kept per sheet), and
// every batch waits for the Writable to drain so the zip's buffers stay small. Cells are typed values, never
// formulas, so no neutralising is needed here.

const BATCH = 500;

function xlsxCell(value: unknown, type: ColumnType): unknown {
  const cell = jsonCell(value);
  if (cell === null) return null;
  if ((type === 'decimal' || type === 'integer') && typeof cell === 'string' && Number.isFinite(Number(cell)))
    return Number(cell);
  if (typeof cell === 'object') return JSON.stringify(cell);
  return cell;
}

type Sheet = ReturnType<ExcelJS.stream.xlsx.WorkbookWriter['addWorksheet']>;

interface LegacyWritable extends Writable {
  _writableState?: { length: number; highWaterMark: number };
}

/**
 * The stream exceljs's sheet buffer writes into (exceljs internals: StreamBuf keeps it in `pipes`; it is a
 * readable-stream PassThrough, which lacks writableNeedDrain, hence _writableState).
 */
function sheetPipes(sheet: Sheet): LegacyWritable[] {
  const stream = (sheet as unknown as { _stream?: { pipes?: unknown } })._stream;
  return Array.isArray(stream?.pipes) ? (stream.pipes as LegacyWritable[]) : [];
}

/**
 * exceljs writes sheet XML into the zip's deflate input without looking at write()'s answer, and zlib runs off the
 * main thread. So wait while that input or the Writable is full: the backpressure exceljs does not pass on.
 */
async function letZipCatchUp(sheet: Sheet, counter: PassThrough): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve)); // let the zip start on the sheet's entry
  for (const pipe of sheetPipes(sheet)) {
    const state = pipe._writableState;
    if (state && state.length > state.highWaterMark) await waitForDrain(pipe);
  }
  if (counter.writableNeedDrain) await waitForDrain(counter);
}

export async function writeXlsx(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  let bytes = 0;
  // A counting pass-through; pipe() carries the Writable's backpressure back to it.
  const counter = new PassThrough({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  counter.pipe(out);
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
  // Awaited only after the last row: an error of `out` before then must not count as an unhandled rejection (which
  // ends the process); it is still thrown by the `await finished` below.
  finished.catch(() => undefined);
  // Loaded on the first XLSX export: exceljs costs ~30 MB of resident memory that most servers never need.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    stream: counter,
    useStyles: false,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet(options.sheetName ?? 'Result');
  const columns = result.columns;
  sheet.addRow(columns.map((c) => c.name)).commit();
  const state = { truncated: false };
  let rows = 0;
  for await (const row of capped(result.rows, options.maxRows, state)) {
    sheet.addRow(columns.map((c) => xlsxCell(row[c.name], c.type))).commit();
    rows += 1;
    if (rows % BATCH === 0) await letZipCatchUp(sheet, counter);
  }
  sheet.commit();
  await workbook.commit();
  await finished;
  return { rows, bytes, truncated: state.truncated };
}
