import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { JsonRows, rowsInMemory, type Column, type Row, type RowSource } from '../types.ts';
import { csvField } from './csv.ts';
import { type Format, writeRows } from './index.ts';
import { jsonInMemory } from './json.ts';

/** A Writable that keeps what it got (small outputs only) and can be slow, to exercise backpressure. */
function memorySink(options: { keep?: boolean; slowEvery?: number } = {}) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let writes = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      writes += 1;
      if (options.keep !== false) chunks.push(chunk);
      if (options.slowEvery && writes % options.slowEvery === 0) setTimeout(callback, 1);
      else setImmediate(callback);
    },
  });
  return {
    out,
    text: () => Buffer.concat(chunks).toString('utf8'),
    buffer: () => Buffer.concat(chunks),
    bytes: () => bytes,
  };
}

const columns: Column[] = [
  { name: 'id', type: 'integer' },
  { name: 'name', type: 'string' },
  { name: 'amount', type: 'decimal' },
];

function stream(rows: Row[]): RowSource {
  async function* gen() {
    yield* rows;
  }
  return { columns, rows: gen() };
}

describe('CSV', () => {
  it('quotes per RFC 4180 with CRLF and neutralises formula cells in text columns only', async () => {
    const sink = memorySink();
    const stats = await writeRows(
      'csv',
      stream([
        { id: 1, name: 'plain', amount: '-5.00' },
        { id: 2, name: 'a "quoted", text\nwith a line', amount: null },
        { id: 3, name: '=HYPERLINK("http://x")', amount: '1' },
        { id: 4, name: '+1', amount: '2' },
        { id: 5, name: '@SUM(A1)', amount: '3' },
        { id: 6, name: '\tx', amount: '4' },
        { id: 7, name: "'; DROP TABLE x; --", amount: '5' },
      ]),
      sink.out,
      { maxRows: 100 },
    );
    expect(sink.text()).toBe(
      'id,name,amount\r\n' +
        '1,plain,-5.00\r\n' +
        '2,"a ""quoted"", text\nwith a line",\r\n' +
        `3,"'=HYPERLINK(""http://x"")",1\r\n` +
        "4,'+1,2\r\n" +
        "5,'@SUM(A1),3\r\n" +
        "6,'\tx,4\r\n" +
        "7,'; DROP TABLE x; --,5\r\n",
    );
    expect(stats).toEqual({ rows: 7, bytes: Buffer.byteLength(sink.text()), truncated: false });
    expect(csvField('-1', 'string')).toBe("'-1");
    expect(csvField('\rx', 'string')).toBe(`"'\rx"`);
  });
});

describe('rows in memory', () => {
  it('are written at once (jsonInMemory) as the JSON writer streams them, byte for byte, extra members included', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: i,
      name: `n"${i}\u2028é`,
      amount: i % 4 ? `${i}.5` : null,
    }));
    const page = Buffer.from(JSON.stringify({ data: rows }));
    const starts: number[] = [];
    const ends: number[] = [];
    for (let at = page.indexOf('{"id"'); at >= 0; at = page.indexOf('{"id"', at + 1)) {
      starts.push(at);
      ends.push(page.indexOf('}', at) + 1);
    }
    const names = columns.map((column) => column.name);
    const sources = {
      objects: () => rowsInMemory(rows),
      copied: () => new JsonRows(page, starts, ends, names, starts.length),
    };
    for (const [kind, source] of Object.entries(sources)) {
      for (const maxRows of [300, 299, 0]) {
        const options = { maxRows, cached: maxRows === 0, extra: () => ',"more":[1]' };
        const streamed = memorySink();
        const streamedStats = await writeRows('json', { columns, rows: source() }, streamed.out, options);
        const written = jsonInMemory({ columns, rows: source() }, options);
        expect(written?.body.toString('utf8'), `${kind} ${maxRows}`).toBe(streamed.text());
        expect(written?.stats, `${kind} ${maxRows}`).toEqual(streamedStats);
        expect(JSON.parse(streamed.text()).rows).toHaveLength(maxRows);
      }
    }
    expect(jsonInMemory(stream(rows), { maxRows: 10 })).toBeUndefined();
  });

  it('are written byte for byte as the same rows streamed, in every format, with the same truncation', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      id: i,
      name: i % 7 === 0 ? `=x${i}, "q"\n` : `name ${i} ${'é'.repeat(i % 5)}`,
      amount: i % 3 === 0 ? null : `${i}.50`,
      extra: 'dropped',
    }));
    for (const format of ['json', 'csv', 'ndjson', 'xlsx'] as const) {
      for (const maxRows of [2500, 2499, 0]) {
        const streamed = memorySink();
        const streamedStats = await writeRows(format, stream(rows), streamed.out, { maxRows });
        const memory = memorySink({ slowEvery: 3 });
        const memoryStats = await writeRows(format, { columns, rows: rowsInMemory(rows) }, memory.out, { maxRows });
        const { bytes, ...counts } = memoryStats;
        expect(counts, `${format} ${maxRows}`).toEqual({
          rows: streamedStats.rows,
          truncated: streamedStats.truncated,
        });
        // A workbook carries the time it was made (its size may differ by a byte): its sheet is compared below.
        if (format === 'xlsx') continue;
        expect(bytes, `${format} ${maxRows}`).toBe(streamedStats.bytes);
        expect(memory.text(), `${format} ${maxRows}`).toBe(streamed.text());
      }
    }
    const workbook = new ExcelJS.Workbook();
    const sink = memorySink();
    await writeRows('xlsx', { columns, rows: rowsInMemory(rows) }, sink.out, { maxRows: 10 });
    await workbook.xlsx.load(sink.buffer() as never);
    // The header, 10 rows and the note that the result was cut (truncation.test.ts).
    expect(workbook.worksheets[0]!.rowCount).toBe(12);
  });
});

describe('JSON and NDJSON', () => {
  it('writes the JSON shape and stops at the row cap with truncated: true', async () => {
    const sink = memorySink();
    const rows = [1, 2, 3].map((id) => ({ id, name: `n${id}`, amount: '1.10', extra: 'dropped' }));
    const stats = await writeRows('json', stream(rows), sink.out, {
      maxRows: 2,
      cached: false,
      startedAt: performance.now(),
    });
    const body = JSON.parse(sink.text()) as Record<string, unknown>;
    expect(body).toMatchObject({
      columns,
      rows: [
        { id: 1, name: 'n1', amount: '1.10' },
        { id: 2, name: 'n2', amount: '1.10' },
      ],
      truncated: true,
      cached: false,
    });
    expect(typeof body['durationMs']).toBe('number');
    expect(stats.truncated).toBe(true);
  });

  it('starts each row, and the end of the rows, on a line of its own (line breaks in values stay escaped)', async () => {
    const sink = memorySink();
    const rows = [
      { id: 1, name: 'two\nlines', amount: null },
      { id: 2, name: '],"truncated":true}', amount: '2' },
    ];
    await writeRows('json', stream(rows), sink.out, { maxRows: 10 });
    expect(sink.text()).toBe(
      `{"columns":${JSON.stringify(columns)},"rows":[\n` +
        '{"id":1,"name":"two\\nlines","amount":null},\n' +
        '{"id":2,"name":"],\\"truncated\\":true}","amount":"2"}\n' +
        '],"truncated":false,"durationMs":0,"cached":false}',
    );
    const empty = memorySink();
    await writeRows('json', stream([]), empty.out, { maxRows: 10 });
    expect(empty.text()).toBe(
      `{"columns":${JSON.stringify(columns)},"rows":[\n],"truncated":false,"durationMs":0,"cached":false}`,
    );
    expect(JSON.parse(empty.text())).toMatchObject({ rows: [], truncated: false });
  });

  it('is not truncated when the rows fit exactly', async () => {
    const sink = memorySink();
    await writeRows('json', stream([{ id: 1, name: 'a', amount: '1' }]), sink.out, { maxRows: 1 });
    expect(JSON.parse(sink.text())).toMatchObject({ truncated: false, rows: [{ id: 1 }] });
  });

  it('writes one object per line, bytes as base64', async () => {
    const sink = memorySink();
    const binary: RowSource = {
      columns: [{ name: 'b', type: 'binary' }],
      rows: (async function* () {
        yield { b: Buffer.from('hi') };
        yield { b: null };
      })(),
    };
    await writeRows('ndjson', binary, sink.out, { maxRows: 10 });
    expect(sink.text()).toBe('{"b":"aGk="}\n{"b":null}\n');
  });

  it('writes every row with the columns in their order, whatever the row object holds', async () => {
    const sink = memorySink();
    const rows: Row[] = [
      { id: 1, name: 'as is', amount: '1.00' },
      { name: 'keys out of order', id: 2, amount: '2.00' },
      { id: 3, name: 'an extra key', amount: '3.00', extra: 'dropped' },
      { id: 4, name: 'a key missing' },
      { id: 5, name: undefined, amount: '5.00' },
      { id: 6n, name: new Uint8Array([104, 105]), amount: new Date(Date.UTC(2024, 0, 2)) },
      Object.assign(Object.create({ id: 7 }) as Row, { name: 'inherited id', amount: '7.00' }),
    ];
    await writeRows('ndjson', stream(rows), sink.out, { maxRows: 10 });
    expect(sink.text().trim().split('\n')).toEqual([
      '{"id":1,"name":"as is","amount":"1.00"}',
      '{"id":2,"name":"keys out of order","amount":"2.00"}',
      '{"id":3,"name":"an extra key","amount":"3.00"}',
      '{"id":4,"name":"a key missing","amount":null}',
      '{"id":5,"name":null,"amount":"5.00"}',
      '{"id":"6","name":"aGk=","amount":"2024-01-02T00:00:00.000Z"}',
      '{"id":7,"name":"inherited id","amount":"7.00"}',
    ]);
  });
});

describe('XLSX', () => {
  it('writes a workbook exceljs can read back, numbers as numbers', async () => {
    const sink = memorySink();
    await writeRows('xlsx', stream([{ id: 1, name: '=1+1', amount: '2.50' }]), sink.out, { maxRows: 10 });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'id', 'name', 'amount']);
    expect(sheet.getRow(2).values).toEqual([undefined, 1, '=1+1', 2.5]);
  });

  it('keeps each cell its type, escapes text, drops what XML cannot carry and names the sheet safely', async () => {
    const typed: Column[] = [
      { name: 'n', type: 'integer' },
      { name: 'd', type: 'decimal' },
      { name: 'b', type: 'boolean' },
      { name: 't', type: 'string' },
      { name: 'j', type: 'json' },
      { name: 'at', type: 'datetime' },
    ];
    const rows: Row[] = [
      { n: 7n, d: '-0.125', b: true, t: `<a & 'b'> "c"\u0001\u0008\ttab\nline`, j: { k: [1, 'x'] }, at: new Date(0) },
      { n: null, d: 'not a number', b: false, t: '', j: null, at: undefined },
      { n: Number.NaN, d: 1e21, b: null, t: ' padded ', j: [], at: null },
    ];
    const sink = memorySink({ slowEvery: 2 });
    const stats = await writeRows('xlsx', { columns: typed, rows: stream(rows).rows }, sink.out, {
      maxRows: 10,
      sheetName: 'Sales: a/b [2024]?',
    });
    expect(stats).toEqual({ rows: 3, bytes: sink.buffer().length, truncated: false });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Sales  a b  2024  ');
    expect(sheet.getRow(1).values).toEqual([undefined, 'n', 'd', 'b', 't', 'j', 'at']);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      7,
      -0.125,
      true,
      `<a & 'b'> "c"\ttab\nline`,
      '{"k":[1,"x"]}',
      new Date(0),
    ]);
    // An empty text is written as exceljs wrote it (an empty value), which readers take for an empty cell.
    expect(sheet.getRow(3).values).toEqual([undefined, undefined, 'not a number', false]);
    expect(sheet.getRow(4).values).toEqual([undefined, 'NaN', 1e21, undefined, ' padded ', '[]']);
    expect(sheet.rowCount).toBe(4);
  });

  it('writes dates and date-times as Excel dates (UTC), numbers as numbers; what is no date stays text', async () => {
    const typed: Column[] = [
      { name: 'day', type: 'date' },
      { name: 'at', type: 'datetime' },
      { name: 'amount', type: 'decimal' },
    ];
    const rows: Row[] = [
      { day: '2024-02-29', at: '2024-02-29 13:45:30', amount: '1.20000000000000000000' },
      { day: new Date('2023-12-31T00:00:00Z'), at: '2024-03-01T08:00:00+02:00', amount: 3 },
      { day: 'not a date', at: '1899-01-01T00:00:00Z', amount: null },
    ];
    const sink = memorySink();
    await writeRows('xlsx', { columns: typed, rows: stream(rows).rows }, sink.out, { maxRows: 10 });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      new Date('2024-02-29T00:00:00Z'),
      new Date('2024-02-29T13:45:30Z'),
      1.2,
    ]);
    expect(sheet.getCell('A2').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getCell('B2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.Date);
    expect(sheet.getRow(3).values).toEqual([
      undefined,
      new Date('2023-12-31T00:00:00Z'),
      new Date('2024-03-01T06:00:00Z'),
      3,
    ]);
    expect(sheet.getRow(4).values).toEqual([undefined, 'not a date', '1899-01-01T00:00:00Z']);
  });

  it('writes a sheet of many pieces whole, each row where it belongs (buffers are filled again only once consumed)', async () => {
    // ~1.5 MB of sheet XML: ~25 pieces of 64 KiB, written through a slow Writable; one cell larger than a piece
    // goes on its own right after a piece sealed early.
    const huge = 'h'.repeat(30_000);
    const rows: Row[] = Array.from({ length: 12_000 }, (_unused, i) => ({
      id: i,
      name: i === 6_000 ? huge : `name ${i} ${'x'.repeat(i % 40)}`,
      amount: `${i}.25`,
    }));
    const sink = memorySink({ slowEvery: 3 });
    const stats = await writeRows('xlsx', stream(rows), sink.out, { maxRows: 20_000 });
    expect(stats.rows).toBe(12_000);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(12_001);
    const misplaced: number[] = [];
    rows.forEach((row, i) => {
      const values = sheet.getRow(i + 2).values as unknown[];
      if (values[1] !== row.id || values[2] !== row.name || values[3] !== i + 0.25) misplaced.push(i);
    });
    expect(misplaced).toEqual([]);
  });

  it('writes an empty result as a sheet with the header row only', async () => {
    const sink = memorySink();
    const stats = await writeRows('xlsx', stream([]), sink.out, { maxRows: 10 });
    expect(stats).toMatchObject({ rows: 0, truncated: false });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.name).toBe('Result');
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, 'id', 'name', 'amount']);
    expect(workbook.worksheets[0]!.rowCount).toBe(1);
  });
});

describe('constant memory', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;

  // Chunks are Buffers, outside the JS heap: count both.
  const used = () => {
    const memory = process.memoryUsage();
    return memory.heapUsed + memory.arrayBuffers;
  };

  function generated(count: number, onRow: (i: number) => void): RowSource {
    async function* rows() {
      for (let i = 0; i < count; i += 1) {
        onRow(i);
        yield { id: i, name: `customer-${i}@example.com, "quoted"`, amount: `${i}.25` };
      }
    }
    return { columns, rows: rows() };
  }

  it.each<Format>(['csv', 'ndjson'])(
    'streams 1,000,000 rows as %s with bounded memory growth',
    async (format) => {
      gc();
      const baseline = used();
      let peak = 0;
      const sink = memorySink({ keep: false, slowEvery: 50 });
      const result = generated(1_000_000, (i) => {
        if (i % 100_000 === 0 && i > 0) {
          gc();
          peak = Math.max(peak, used() - baseline);
        }
      });
      const stats = await writeRows(format, result, sink.out, { maxRows: 2_000_000 });
      expect(stats.rows).toBe(1_000_000);
      expect(sink.bytes()).toBeGreaterThan(40_000_000);
      // Holding the rows or the output would cost hundreds of MB; streaming keeps the growth to buffers.
      expect(peak).toBeLessThan(20 * 1024 * 1024);
    },
    120_000,
  );

  it('streams 400,000 rows as xlsx with bounded memory growth (the zip keeps up)', async () => {
    gc();
    const baseline = used();
    let peak = 0;
    const sink = memorySink({ keep: false });
    const result = generated(400_000, (i) => {
      if (i % 50_000 === 0 && i > 0) {
        gc();
        peak = Math.max(peak, used() - baseline);
      }
    });
    const stats = await writeRows('xlsx', result, sink.out, { maxRows: 1_000_000 });
    expect(stats.rows).toBe(400_000);
    expect(peak).toBeLessThan(24 * 1024 * 1024);
  }, 120_000);
});
