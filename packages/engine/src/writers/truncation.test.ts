import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { Column, Row, RowSource } from '../types.ts';
import { CrlfRecordEnds } from './crlf.ts';
import { writeRows, type FileFormat } from './index.ts';

// A result longer than the export limit says so inside the file, in every export format, and a result that fits
// (exactly at the limit included) carries no mark: CSV's marked last record, NDJSON's marked last line, XLSX's note
// row, Parquet's footer metadata, read back as their readers see them.

const columns: Column[] = [
  { name: 'id', type: 'integer' },
  { name: 'name', type: 'string' },
];
const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `n, "${i}"` }));
const note = (limit: number) =>
  `# Truncated: the result has more rows than the export limit of ${limit}; this file holds the first ${limit}`;

async function write(format: FileFormat, count: number, maxRows: number) {
  async function* rows() {
    yield* rowsOf(count);
  }
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const source: RowSource = { columns, rows: rows() };
  const stats = await writeRows(format, source, out, { maxRows, sheetName: 'Data' });
  return { stats, body: Buffer.concat(chunks) };
}

describe('a cut-off export', () => {
  it('ends CSV with a marked record as wide as the header, and leaves a whole result alone', async () => {
    const cut = await write('csv', 4, 3);
    expect(cut.stats).toMatchObject({ rows: 3, truncated: true });
    const lines = cut.body.toString('utf8').split('\r\n');
    expect(lines.slice(-2)).toEqual([`${note(3)},`, '']);
    expect(lines).toHaveLength(1 + 3 + 1 + 1);
    const exact = await write('csv', 3, 3);
    expect(exact.stats).toMatchObject({ rows: 3, truncated: false });
    expect(exact.body.toString('utf8')).not.toContain('#');
  });

  it('ends NDJSON with a line of its own shape, and leaves a whole result alone', async () => {
    const cut = (await write('ndjson', 5, 2)).body.toString('utf8').trimEnd().split('\n');
    expect(cut).toHaveLength(3);
    expect(JSON.parse(cut[2]!)).toEqual({ _truncated: true, rows: 2, limit: 2 });
    const exact = (await write('ndjson', 2, 2)).body.toString('utf8').trimEnd().split('\n');
    expect(exact.map((line) => JSON.parse(line) as Row)).toEqual(rowsOf(2));
  });

  it('ends the XLSX sheet with a note row naming the cut, and leaves a whole result alone', async () => {
    const read = async (count: number, maxRows: number) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await write('xlsx', count, maxRows)).body as never);
      return workbook.worksheets[0]!;
    };
    const cut = await read(4, 2);
    expect(cut.rowCount).toBe(1 + 2 + 1);
    expect(cut.getRow(4).getCell(1).value).toBe(note(2));
    expect((await read(2, 2)).rowCount).toBe(1 + 2);
  });

  it('marks a cut Parquet file in its footer metadata, and leaves a whole result alone', async () => {
    const file = async (count: number, maxRows: number) => {
      const { body } = await write('parquet', count, maxRows);
      return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
    };
    const cut = await file(5, 3);
    expect(await parquetReadObjects({ file: cut })).toHaveLength(3);
    expect(parquetMetadata(cut).key_value_metadata).toEqual([
      { key: 'datalab.truncated', value: 'true' },
      { key: 'datalab.rows', value: '3' },
      { key: 'datalab.limit', value: '3' },
    ]);
    expect(parquetMetadata(await file(3, 3)).key_value_metadata).toBeUndefined();
  });
});

describe('CrlfRecordEnds with a record limit (the COPY path)', () => {
  it('passes the header and the records allowed, counts the header’s fields, and tells of more', () => {
    const records = new CrlfRecordEnds(3);
    const parts = ['id,"a,b",c\n1,"x\ny",', '2\n2,p,q\n3,', 'r,s\n'].map((text) => Buffer.from(text));
    const out = Buffer.concat(parts.map((part) => records.convert(part))).toString();
    expect(out).toBe('id,"a,b",c\r\n1,"x\ny",2\r\n2,p,q\r\n');
    expect({ records: records.records, fields: records.headerFields, overflow: records.overflow }).toEqual({
      records: 3,
      fields: 3,
      overflow: true,
    });
    const whole = new CrlfRecordEnds(3);
    expect(whole.convert(Buffer.from('id\n1\n2\n')).toString()).toBe('id\r\n1\r\n2\r\n');
    expect(whole.overflow).toBe(false);
  });
});
