import { Writable } from 'node:stream';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Column, Row, RowSource } from '../types.ts';
import { writeRows } from './index.ts';
import { ROW_GROUP_ROWS } from './parquet.ts';

// The Parquet writer, read back with hyparquet (the reader hyparquet-writer is built against): every column type
// with nulls, several row groups, the export limit, and backpressure from a slow Writable.

function sink(options: { slow?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let highest = 0;
  const out = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      highest = Math.max(highest, out.writableLength);
      if (options.slow) setTimeout(callback, 1);
      else setImmediate(callback);
    },
  });
  return {
    out,
    file: () => {
      const bytes = Buffer.concat(chunks);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
    highest: () => highest,
  };
}

function source(columns: Column[], rows: Iterable<Row>): RowSource {
  async function* gen() {
    yield* rows;
  }
  return { columns, rows: gen() };
}

const allTypes: Column[] = [
  { name: 'id', type: 'integer' },
  { name: 'big', type: 'integer' },
  { name: 'amount', type: 'decimal' },
  { name: 'active', type: 'boolean' },
  { name: 'day', type: 'date' },
  { name: 'at', type: 'datetime' },
  { name: 'name', type: 'string' },
  { name: 'doc', type: 'json' },
  { name: 'blob', type: 'binary' },
];

describe('Parquet', () => {
  it('writes every column type and nulls so that a reader gets the values back', async () => {
    // A timestamp without an offset is a UTC wall time whatever the machine's zone: run this one far from UTC.
    const zone = process.env['TZ'];
    process.env['TZ'] = 'Asia/Tokyo';
    onTestFinished(() => {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    });
    const out = sink();
    const stats = await writeRows(
      'parquet',
      source(allTypes, [
        {
          id: 1,
          big: '9007199254740993',
          amount: '12.50',
          active: true,
          day: '2026-11-25',
          at: '2026-11-25T10:20:30.123+00:00',
          name: 'Zoë',
          doc: { a: [1, 2] },
          blob: new Uint8Array([1, 2, 3]),
        },
        { id: 2, big: null, amount: null, active: null, day: null, at: null, name: null, doc: null, blob: null },
        // SQLite hands booleans as 0/1 and timestamps without an offset (UTC wall times).
        { id: 3, big: 7, amount: 0.25, active: 0, day: '2024-02-29', at: '2024-02-29T23:59:59', name: '', doc: [] },
      ]),
      out.out,
      { maxRows: 100 },
    );
    expect(stats).toMatchObject({ rows: 3, truncated: false });
    const file = out.file();
    expect(stats.bytes).toBe(file.byteLength);
    // utf8: false keeps plain BYTE_ARRAY (binary) as bytes; STRING columns are decoded either way.
    const rows = await parquetReadObjects({ file, utf8: false });
    expect(rows).toEqual([
      {
        id: 1n,
        big: 9007199254740993n,
        amount: 12.5,
        active: true,
        day: new Date('2026-11-25T00:00:00Z'),
        at: new Date('2026-11-25T10:20:30.123Z'),
        name: 'Zoë',
        doc: { a: [1, 2] },
        blob: new Uint8Array([1, 2, 3]),
      },
      { id: 2n, big: null, amount: null, active: null, day: null, at: null, name: null, doc: null, blob: null },
      {
        id: 3n,
        big: 7n,
        amount: 0.25,
        active: false,
        day: new Date('2024-02-29T00:00:00Z'),
        at: new Date('2024-02-29T23:59:59Z'),
        name: '',
        doc: [],
        blob: null,
      },
    ]);
  });

  it('writes an empty result as a valid file with its columns', async () => {
    const out = sink();
    const stats = await writeRows('parquet', source(allTypes, []), out.out, { maxRows: 10 });
    expect(stats.rows).toBe(0);
    const metadata = parquetMetadata(out.file());
    expect(Number(metadata.num_rows)).toBe(0);
    expect(metadata.schema.slice(1).map((element) => element.name)).toEqual(allTypes.map((c) => c.name));
  });

  it('splits a long result into bounded row groups and stops at the export limit, with backpressure', async () => {
    const columns: Column[] = [
      { name: 'n', type: 'integer' },
      { name: 'label', type: 'string' },
    ];
    const total = ROW_GROUP_ROWS * 2 + 500;
    function* many() {
      for (let n = 0; n < total + 100; n += 1) yield { n, label: `row ${n}` };
    }
    const out = sink({ slow: true });
    const stats = await writeRows('parquet', source(columns, many()), out.out, { maxRows: total });
    expect(stats).toMatchObject({ rows: total, truncated: true });
    const file = out.file();
    const metadata = parquetMetadata(file);
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([ROW_GROUP_ROWS, ROW_GROUP_ROWS, 500]);
    const rows = await parquetReadObjects({ file, rowStart: total - 2, rowEnd: total });
    expect(rows).toEqual([
      { n: BigInt(total - 2), label: `row ${total - 2}` },
      { n: BigInt(total - 1), label: `row ${total - 1}` },
    ]);
    // A row group is handed over in one piece, then the writer waits for 'drain': the queue never holds two.
    expect(out.highest()).toBeLessThan(2 * 1024 * 1024);
  });
});
