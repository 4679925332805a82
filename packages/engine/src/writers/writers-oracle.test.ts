import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { rowsInMemory, type Column, type ColumnType, type Row, type RowSource } from '../types.ts';
import { type Format, writeRows } from './index.ts';
import type { WriteOptions, WriteStats } from './sink.ts';

// The hand-written writers held to the libraries they replace, through the same call (writeRows) with the switch of
// WriteOptions: JSON and NDJSON rows written by JsonBytes must be byte for byte what JSON.stringify writes
// (jsonRows: 'stringify'), and the XLSX of xlsx.ts and zip.ts must read back, cell for cell, as the workbook exceljs
// writes of the same rows (xlsxWriter). Random rows from a seeded generator, so a failure replays from its seed.

/** mulberry32: small and deterministic. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const CHARS = ['a', 'Z', '0', ' ', '"', '\\', ',', '<', '>', '&', "'", 'é', '中', '😀', '=', '-', '\n', '\t'];
/** JSON must escape these too; XML cannot carry them (xlsx.ts drops them), so they go into JSON texts only. */
const JSON_ONLY = ['\u0000', '\u0001', '\u001f', '\u2028', '\ud800'];

function text(random: Random, forXml: boolean): string {
  const chars = forXml ? CHARS : [...CHARS, ...JSON_ONLY];
  let value = '';
  const length = Math.floor(random() * (random() < 0.1 ? 200 : 12));
  for (let i = 0; i < length; i += 1) value += pick(random, chars);
  return value;
}

const two = (n: number) => String(n).padStart(2, '0');

function cell(random: Random, type: ColumnType, forXml: boolean): unknown {
  if (random() < 0.1) return null;
  const year = 1990 + Math.floor(random() * 40);
  const date = `${year}-${two(1 + Math.floor(random() * 12))}-${two(1 + Math.floor(random() * 28))}`;
  switch (type) {
    case 'integer':
      return pick(random, [0, -1, 7, 2 ** 31, -(2 ** 53 - 1), Math.floor(random() * 1e9)]);
    case 'decimal':
      return pick(random, [0.5, -2.25, 1e21, 1e-7, random() * 1e6 - 5e5]);
    case 'boolean':
      return random() < 0.5;
    case 'date':
      return date;
    case 'datetime':
      return `${date}T${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}Z`;
    case 'json':
      return pick(random, [{ a: 1, b: [true, null] }, [], {}, [1, text(random, forXml)], { t: text(random, forXml) }]);
    default:
      return text(random, forXml);
  }
}

const TYPES: ColumnType[] = ['integer', 'decimal', 'string', 'boolean', 'date', 'datetime', 'json'];

function randomRows(random: Random, forXml: boolean): { columns: Column[]; rows: Row[] } {
  const types = TYPES.filter(() => random() < 0.6);
  if (types.length === 0) types.push('string');
  const columns = types.map((type, index) => ({ name: `${type}_${index}`, type }));
  const count = Math.floor(random() * 60);
  const rows = Array.from({ length: count }, () =>
    Object.fromEntries(columns.map((column) => [column.name, cell(random, column.type, forXml)])),
  );
  return { columns, rows };
}

async function written(format: Format, source: RowSource, options: WriteOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeRows(format, source, out, options);
  return Buffer.concat(chunks);
}

/** The library path for XLSX: exceljs's streaming writer, cells typed as xlsx.ts types them. */
async function exceljsWriter(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(options.sheetName ?? 'Sheet1');
  sheet.addRow(result.columns.map((column) => column.name)).commit();
  let rows = 0;
  for await (const row of result.rows) {
    const values = result.columns.map(({ name, type }) => {
      const value = row[name];
      if (value === null || value === undefined) return null;
      if (type === 'date' || type === 'datetime')
        return new Date(type === 'date' ? `${String(value)}T00:00:00Z` : String(value));
      if (type === 'json') return JSON.stringify(value);
      return value;
    });
    const added = sheet.addRow(values);
    result.columns.forEach(({ type }, index) => {
      if (type === 'date') added.getCell(index + 1).numFmt = 'yyyy-mm-dd';
      if (type === 'datetime') added.getCell(index + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
    });
    added.commit();
    rows += 1;
  }
  sheet.commit();
  await workbook.commit();
  return { rows, bytes: 0, truncated: false };
}

/** Every row's values as exceljs reads them back (dates to ISO text, to the second). */
async function readBack(file: Buffer): Promise<unknown[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values = (row.values as unknown[]).slice(1).map((value) => {
      if (value instanceof Date) return value.toISOString().slice(0, 19);
      return value === '' ? null : value;
    });
    while (values.length > 0 && (values.at(-1) === null || values.at(-1) === undefined)) values.pop();
    rows.push(values.map((value) => value ?? null));
  });
  return rows;
}

describe('the hand-written writers against the libraries they replace', () => {
  it('write JSON and NDJSON byte for byte as JSON.stringify does, row caps included', async () => {
    const seed = 41;
    const random = seeded(seed);
    for (let i = 0; i < 300; i += 1) {
      const { columns, rows } = randomRows(random, false);
      const format = pick(random, ['json', 'ndjson'] as const);
      const maxRows = random() < 0.2 ? Math.floor(random() * 10) : 1_000;
      const own = await written(format, { columns, rows: rowsInMemory(rows) }, { maxRows });
      const library = await written(format, { columns, rows: rowsInMemory(rows) }, { maxRows, jsonRows: 'stringify' });
      expect(own.toString('utf8'), `seed ${seed}, case ${i}`).toBe(library.toString('utf8'));
    }
  }, 30_000);

  it('write XLSX that reads back as the workbook exceljs writes of the same rows', async () => {
    const seed = 43;
    const random = seeded(seed);
    for (let i = 0; i < 40; i += 1) {
      const { columns, rows } = randomRows(random, true);
      const own = await written('xlsx', { columns, rows: rowsInMemory(rows) }, { maxRows: 1_000 });
      const library = await written(
        'xlsx',
        { columns, rows: rowsInMemory(rows) },
        { maxRows: 1_000, xlsxWriter: exceljsWriter },
      );
      expect(await readBack(own), `seed ${seed}, case ${i}`).toEqual(await readBack(library));
    }
  }, 60_000);
});
