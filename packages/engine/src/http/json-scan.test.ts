import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonRows, rowsInMemory, type Column, type Row, type RowsInMemory } from '../types.ts';
import { writeJson } from '../writers/json.ts';
import { scanPath, scanRows, scannedObjects, type ScannedRows } from './json-scan.ts';
import { inferColumns, rowsAt, shapeRow } from './rows.ts';
import { mutate, randomReply, seeded } from '../../test/support/json-replies.ts';

// The scan must answer exactly what the parse path answers (JSON.parse, rowsAt, inferColumns, shapeRow) whenever it
// answers at all, and must never answer for a reply JSON.parse refuses.

/** What the connector made of a page before the scan: its columns and shaped rows (throws when not JSON). */
function parsePath(data: Buffer, rowsPath: string): { columns: Column[]; rows: Row[] } {
  const rows = rowsAt(JSON.parse(data.toString('utf8').replace(/^\uFEFF/, '')), rowsPath);
  const columns = inferColumns(rows);
  return { columns, rows: rows.map((row) => shapeRow(row, columns)) };
}

function scan(data: Buffer, rowsPath: string): ScannedRows | undefined {
  const path = scanPath(rowsPath);
  return path === undefined ? undefined : scanRows(data, path);
}

async function jsonReply(columns: Column[], rows: RowsInMemory): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeJson({ columns, rows }, out, { maxRows: 1_000_000 });
  return Buffer.concat(chunks).toString('utf8');
}

/** The scan's answer equals the parse path's, and the JSON written from its bytes says the same, a row a line. */
async function expectSameAsParsed(data: Buffer, rowsPath: string, scanned: ScannedRows): Promise<void> {
  const expected = parsePath(data, rowsPath);
  expect(scanned.columns).toEqual(expected.columns);
  expect(scannedObjects(scanned)).toEqual(expected.rows);
  const names = scanned.columns.map((column) => column.name);
  const copied = new JsonRows(data, scanned.starts, scanned.ends, names, scanned.starts.length);
  const fromBytes = await jsonReply(scanned.columns, copied);
  const fromValues = await jsonReply(expected.columns, rowsInMemory(expected.rows));
  expect(JSON.parse(fromBytes)).toEqual(JSON.parse(fromValues));
  // `{"columns":…,"rows":[`, one line a row, `],…}`.
  expect(fromBytes.split('\n')).toHaveLength(expected.rows.length + 2);
}

/** Whether the parse path reads it (it drops a byte-order mark first). */
function parses(data: Buffer): boolean {
  try {
    JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

describe('scanRows', () => {
  it('answers a page of same-shaped rows exactly as the parse path does, and JSON written from its bytes says the same', async () => {
    const random = seeded(11);
    let answered = 0;
    const total = 4000;
    for (let i = 0; i < total; i += 1) {
      const { text, rowsPath } = randomReply(random);
      const data = Buffer.from(text);
      const scanned = scan(data, rowsPath);
      if (!scanned) continue;
      answered += 1;
      await expectSameAsParsed(data, rowsPath, scanned);
    }
    // Most generated pages are the plain case the scan is for: the property is not held by declining everything.
    expect(answered).toBeGreaterThan(total * 0.2);
  }, 30_000);

  it('never answers for a reply JSON.parse refuses (one byte changed, dropped or added)', async () => {
    const random = seeded(23);
    let refused = 0;
    for (let i = 0; i < 6000; i += 1) {
      const { text, rowsPath } = randomReply(random);
      const data = mutate(random, Buffer.from(text));
      const scanned = scan(data, rowsPath);
      if (!parses(data)) {
        refused += 1;
        expect(scanned, data.toString('utf8')).toBeUndefined();
      } else if (scanned) await expectSameAsParsed(data, rowsPath, scanned);
    }
    expect(refused).toBeGreaterThan(2000);
  }, 30_000);

  it('answers the plain cases: compact rows, spaces inside rows, rows on lines of their own, a byte-order mark', async () => {
    const cases: [string, string][] = [
      ['{"data":[{"id":1,"at":"2024-01-03T08:20:00Z"},{"id":2.5,"at":null}]}', 'data'],
      ['[{"a": "x" , "b" : [1, 2]},\n {"a":"y","b":{}}\n]', ''],
      ['\uFEFF{"r":{"rows":[{"n":true}]}}', 'r.rows'],
      ['[{}, {}]', ''],
      ['[{"big":98765432109876543210,"small":5e-324}]', ''],
    ];
    for (const [text, rowsPath] of cases) {
      const data = Buffer.from(text);
      const scanned = scan(data, rowsPath);
      expect(scanned, text).toBeDefined();
      await expectSameAsParsed(data, rowsPath, scanned!);
    }
  });

  it('leaves to the parse what it cannot copy as it is', () => {
    const declined: [string | Buffer, string][] = [
      ['{"data":[{"id":1,"id":2}]}', 'data'], // a repeated key: JSON.parse keeps the last
      ['{"data":[{"id":1}],"data":[{"id":2}]}', 'data'], // a repeated rows key
      ['[{"2":"b","1":"a"}]', ''], // index keys: an object lists them first
      ['[{"\\u0069d":1}]', ''], // a key with an escape
      ['[{"a":"\\a"}]', ''], // an escape JSON does not have
      ['[{"a":"\\u00g1"}]', ''], // a \u escape that is not four hex digits
      ['[{"id":1},{"name":1}]', ''], // other keys
      ['[{"id":1,"n":2},{"n":2,"id":1}]', ''], // the same keys in another order
      ['[{"id":1},{"id":1,"n":2}]', ''], // one more key
      ['[{"id":\n1}]', ''], // a row across lines
      ['[{"x":1e400}]', ''], // Infinity, which JSON writes as null
      ['[{"x":-0}]', ''], // -0, which JSON writes as 0
      ['[{"x":[-0.0e5]}]', ''],
      ['[1,2]', ''], // rows that are not objects
      ['[]', ''], // no rows
      ['{"data":null}', 'data'],
      ['{"data":{"id":1}}', 'data'], // one object: one row, parsed
      ['{"other":[{"id":1}]}', 'data'],
      [Buffer.from([0x5b, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x5d]), ''], // not UTF-8
      ['[{"id":1}] x', ''], // not JSON after the rows
      ['', ''],
    ];
    for (const [text, rowsPath] of declined) {
      const data = typeof text === 'string' ? Buffer.from(text) : text;
      expect(scan(data, rowsPath), data.toString('utf8')).toBeUndefined();
    }
    // An index into an array on the rows path is left to the parse too.
    expect(scanPath('results.0.rows')).toBeUndefined();
  });

  it('copies only the rows kept: a cap within the page, and nothing once released', async () => {
    const data = Buffer.from('{"data":[{"id":1},{"id":2},{"id":3}]}');
    const scanned = scan(data, 'data')!;
    const rows = new JsonRows(data, scanned.starts, scanned.ends, ['id'], 2);
    expect(rows.count).toBe(2);
    expect(rows.all).toEqual([{ id: 1 }, { id: 2 }]);
    expect(JSON.parse(await jsonReply(scanned.columns, rows)).rows).toEqual([{ id: 1 }, { id: 2 }]);
    rows.release();
    expect(rows.count).toBe(0);
    expect(rows.all).toEqual([]);
  });

  it('refuses a raw control character, and finds a quote or a backslash, at any place in a longer text', () => {
    const text = 'abcdefghijklmnopqrst';
    for (let at = 0; at < text.length; at += 1) {
      const reply = (middle: string) => Buffer.from(`[{"a":"${text.slice(0, at)}${middle}${text.slice(at)}","b":1}]`);
      for (let code = 0; code < 0x20; code += 1) expect(scan(reply(String.fromCharCode(code)), '')).toBeUndefined();
      for (const middle of ['\\"', '\\\\', '\\u00e9', 'é']) {
        const data = reply(middle);
        const scanned = scan(data, '')!;
        expect(scannedObjects(scanned), `${middle} at ${at}`).toEqual(JSON.parse(data.toString('utf8')));
      }
    }
  });

  it('answers each page its own positions, a shorter page after a longer one and after a declined one', () => {
    const long = scan(Buffer.from('[{"a":1},{"a":2},{"a":3}]'), '')!;
    expect(scan(Buffer.from('[{"a":1},{"b":2}]'), '')).toBeUndefined();
    const short = scan(Buffer.from('[ {"a":9} ]'), '')!;
    expect([short.starts, short.ends]).toEqual([[2], [9]]);
    expect([long.starts, long.ends]).toEqual([
      [1, 9, 17],
      [8, 16, 24],
    ]);
  });

  it('shares the columns of pages with the same keys and types, and only of those', async () => {
    const page = (rows: unknown[]) => Buffer.from(JSON.stringify({ data: rows }));
    const first = scanRows(page([{ id: 1, name: 'a' }]), ['data'])!;
    const again = scanRows(page([{ id: 2, name: 'b' }]), ['data'])!;
    expect(again.columns).toBe(first.columns);
    expect(again.names).toBe(first.names);
    expect(Object.isFrozen(first.columns) && Object.isFrozen(first.columns[0])).toBe(true);
    // The same keys with another type, a key one byte apart, one key more or less: columns of their own.
    const cases = [
      [{ id: 1.5, name: 'a' }],
      [{ id: 'x', name: 'a' }],
      [{ id: 1, nama: 'a' }],
      [{ id: 1, name: 'a', more: true }],
      [{ id: 1 }],
      [{ iD: 1, name: 'a' }],
    ];
    for (const rows of cases) {
      const data = page(rows);
      const scanned = scanRows(data, ['data'])!;
      expect(scanned.columns, JSON.stringify(rows)).not.toBe(first.columns);
      await expectSameAsParsed(data, 'data', scanned);
    }
    // The first shape is still there, as it was.
    expect(scanRows(page([{ id: 3, name: 'c' }]), ['data'])!.columns).toBe(first.columns);
    expect(first.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'string' },
    ]);
  });
});
