import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonRows, rowsInMemory, type Column, type Row, type RowsInMemory } from '../types.ts';
import { writeJson } from '../writers/json.ts';
import { scanPath, scanRows, scannedObjects, type ScannedRows } from './json-scan.ts';
import { inferColumns, rowsAt, shapeRow } from './rows.ts';

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

/** A small deterministic generator, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const TEXTS = [
  'north',
  'order note 4f1c',
  'é and ü',
  '😀',
  'a "quoted" word',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '',
];
const DATES = ['2024-01-02', '2024-13-02', '0000-00-00', '2024-1-02', '20240102', '2024-02-30'];
const DATE_TIMES = [
  '2024-01-03T08:20:00.000Z',
  '2024-01-03T08:20:00Z',
  '2024-01-03 08:20:00+02:00',
  '2024-01-03t08:20z',
  '2024-01-03T24:00:00Z',
  '2024-01-03T24:00:01Z',
  '2024-01-03T08:61:00Z',
  '2024-01-03T08:20:00+0530',
  '2024-01-03T08:20:00',
];
/** Number texts as an upstream may write them (JSON.parse reads each). */
const NUMBERS = ['0', '7', '-42', '123456789012345', '1234567890123456', '98765432109876543210', '1.5', '-0.25'];
const MORE_NUMBERS = ['-0', '1e3', '1E-3', '2.0', '1e400', '-1e400', '5e-324', '9007199254740993'];

/** A cell's JSON text, of the column's usual kind most of the time and of any kind now and then. */
function cellText(random: Random, kind: number): string {
  const roll = random();
  const k = roll < 0.8 ? kind : Math.floor(random() * 7);
  switch (k) {
    case 0:
      return pick(random, NUMBERS);
    case 1:
      return random() < 0.8 ? pick(random, NUMBERS) : pick(random, MORE_NUMBERS);
    case 2:
      return JSON.stringify(pick(random, TEXTS)).replace('\\u00e9', random() < 0.5 ? 'é' : '\\u00e9');
    case 3:
      return JSON.stringify(pick(random, DATES));
    case 4:
      return JSON.stringify(pick(random, DATE_TIMES));
    case 5:
      return pick(random, ['true', 'false', 'null', 'null']);
    default:
      return pick(random, ['{"a":1,"b":[true,null]}', '[]', '{}', '[1,"x",{"y":2}]', '{ "spaced" : [ 1 , 2 ] }']);
  }
}

const KEYS = ['id', 'name', 'amount', 'created_at', 'day', 'flag', 'extra', 'ünï', '__proto__', 'a b'];

/** A reply: mostly rows of one shape, compact; sometimes with spaces, line breaks, other shapes or other wrappers. */
function randomReply(random: Random): { text: string; rowsPath: string } {
  const keys = KEYS.filter(() => random() < 0.5).slice(0, 6);
  if (keys.length === 0) keys.push('id');
  if (random() < 0.03) keys.push('1');
  const kinds = keys.map(() => Math.floor(random() * 7));
  const space = () => (random() < 0.97 ? '' : pick(random, [' ', '\t', '\n', '\r\n', '  ', ' ', '\t']));
  const rows: string[] = [];
  const count = 1 + Math.floor(random() * 8);
  for (let r = 0; r < count; r += 1) {
    let rowKeys = keys;
    if (random() < 0.01) rowKeys = [...keys].reverse();
    if (random() < 0.01) rowKeys = keys.slice(1);
    if (random() < 0.01) rowKeys = [...keys, keys[0]!];
    if (random() < 0.01)
      return { text: `[${rows.join(',')}${rows.length ? ',' : ''}${cellText(random, 2)}]`, rowsPath: '' };
    const members = rowKeys.map((key, index) => {
      const name = random() < 0.02 ? JSON.stringify(key).replace('i', '\\u0069') : JSON.stringify(key);
      return `${space()}${name}${space()}:${space()}${cellText(random, kinds[index] ?? 2)}${space()}`;
    });
    rows.push(`${space()}{${members.join(',')}}${space()}`);
  }
  const array = `[${rows.join(random() < 0.3 ? ',\n' : ',')}]`;
  const wrapper = Math.floor(random() * 4);
  if (wrapper === 0) return { text: array, rowsPath: '' };
  if (wrapper === 1) return { text: `{"page":3,"data":${array},"next":"/v1?page=4"}`, rowsPath: 'data' };
  if (wrapper === 2) return { text: `{"result":{"total":9,"items":${array}},"ok":true}`, rowsPath: 'result.items' };
  return { text: `\uFEFF {"meta":{"data":[]},"data":${array}}\n`, rowsPath: 'data' };
}

/** One byte changed, dropped or added: mostly not JSON any more. */
function mutate(random: Random, text: Buffer): Buffer {
  const at = Math.floor(random() * text.length);
  const byte = pick(random, [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x0a, 0x01, 0x30, 0x2e, 0x65, 0x80, 0xff]);
  const mode = Math.floor(random() * 3);
  if (mode === 0) return Buffer.concat([text.subarray(0, at), text.subarray(at + 1)]);
  if (mode === 1) return Buffer.concat([text.subarray(0, at), Buffer.from([byte]), text.subarray(at)]);
  const copy = Buffer.from(text);
  copy[at] = byte;
  return copy;
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
  });

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
  });

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
