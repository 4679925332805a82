import { describe, expect, it } from 'vitest';
import { TextRows, rowsInMemory, timestampText, type CellText } from '../types.ts';
import { JsonBytes } from './json-bytes.ts';

/** What `write` puts into a JsonBytes, as text. */
function written(write: (bytes: JsonBytes) => void): string {
  const bytes = new JsonBytes();
  try {
    write(bytes);
    return bytes.take().toString('utf8');
  } finally {
    bytes.done();
  }
}

/** A random string of code units from every range JSON treats differently (controls, quotes, 2/3-byte, surrogates). */
function randomText(random: () => number): string {
  const ranges = [
    [0x00, 0x1f],
    [0x20, 0x7e],
    [0x22, 0x22],
    [0x5c, 0x5c],
    [0x7f, 0x7ff],
    [0x800, 0xd7ff],
    [0xd800, 0xdfff],
    [0xe000, 0xffff],
  ] as const;
  let text = '';
  const length = Math.floor(random() * 12);
  for (let i = 0; i < length; i += 1) {
    const [from, to] = ranges[Math.floor(random() * ranges.length)]!;
    text += String.fromCharCode(from + Math.floor(random() * (to - from + 1)));
  }
  if (random() < 0.2) text += '😀';
  return text;
}

/** A small deterministic generator, so a failure can be replayed. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('JsonBytes', () => {
  it('writes every string exactly as JSON.stringify does (controls, quotes, UTF-8, surrogate pairs and lone halves)', () => {
    const random = seeded(7);
    for (let i = 0; i < 5000; i += 1) {
      const text = randomText(random);
      expect(
        written((bytes) => bytes.string(text)),
        JSON.stringify(text),
      ).toBe(JSON.stringify(text));
    }
  });

  it('writes any value as a row member the way JSON.stringify would carry it', () => {
    const values: [unknown, string][] = [
      [0, '0'],
      [-0, '0'],
      [1.5e-7, '1.5e-7'],
      [1e21, '1e+21'],
      [Number.NaN, 'null'],
      [Number.POSITIVE_INFINITY, 'null'],
      [true, 'true'],
      [null, 'null'],
      [undefined, 'null'],
      [12345678901234567890n, '"12345678901234567890"'],
      [new Date('2024-03-01T10:00:00Z'), '"2024-03-01T10:00:00.000Z"'],
      [new Date(Number.NaN), 'null'],
      [Uint8Array.from([104, 105]), '"aGk="'],
      [{ a: [1, 'x"'], b: new Date(0) }, '{"a":[1,"x\\""],"b":"1970-01-01T00:00:00.000Z"}'],
    ];
    for (const [value, json] of values)
      expect(
        written((bytes) => bytes.value(value)),
        String(json),
      ).toBe(json);
  });

  it('writes database texts as JSON.stringify writes the values their parsers make', () => {
    const cases: [string, CellText, unknown][] = [
      ['42', 'digits', 42],
      ['-7', 'digits', -7],
      ['123456789012345', 'bigint', 123456789012345],
      ['-900719925474099', 'bigint', -900719925474099],
      ['9007199254740993', 'bigint', '9007199254740993'],
      ['-9223372036854775808', 'bigint', '-9223372036854775808'],
      ['t', 'boolean', true],
      ['f', 'boolean', false],
      ['10.50', 'text', '10.50'],
      ['a "b" \\ c\n', 'text', 'a "b" \\ c\n'],
      ['2024-03-01 10:00:00+00', 'timestamp', timestampText('2024-03-01 10:00:00+00')],
      ['2024-03-01 15:30:00+05:30', 'timestamp', '2024-03-01T15:30:00+05:30'],
      ['2024-03-01 02:00:00.25-08', 'timestamp', '2024-03-01T02:00:00.25-08:00'],
      ['0044-03-15 10:00:00 BC', 'timestamp', '0044-03-15T10:00:00 BC'],
      ['infinity', 'timestamp', 'infinity'],
      ['-infinity', 'timestamp', '-infinity'],
    ];
    for (const [text, kind, value] of cases) {
      expect(
        written((bytes) => bytes.cell(text, kind)),
        `${kind} ${text}`,
      ).toBe(JSON.stringify(value));
    }
  });

  it('grows past its first buffer and hands each piece over as its own copy', () => {
    const bytes = new JsonBytes();
    try {
      const long = 'x'.repeat(200_000);
      bytes.string(long);
      const first = bytes.take();
      bytes.ascii('1');
      const second = bytes.take();
      expect(first.toString()).toBe(JSON.stringify(long));
      expect(second.toString()).toBe('1');
    } finally {
      bytes.done();
    }
  });
});

describe('rows in memory', () => {
  const columns = [
    { name: 'id', type: 'integer' as const },
    { name: 'name', type: 'string' as const },
    { name: 'id', type: 'integer' as const },
  ];

  it('type database texts on demand, the last column of a repeated name winning', () => {
    const rows = new TextRows(
      columns,
      [
        ['1', 'a', '9'],
        [null, 'b', null],
      ],
      [Number, String, Number],
      [],
    );
    expect(rows.count).toBe(2);
    expect(rows.all).toEqual([
      { id: 9, name: 'a' },
      { id: null, name: 'b' },
    ]);
    expect(Object.keys(rows.all[0]!)).toEqual(['id', 'name']);
  });

  it('are emptied by release, with the rows they were made from', () => {
    const texts = new TextRows(columns, [['1', 'a', '1']], [Number, String, Number], []);
    const derived = rowsInMemory([...texts.all], texts);
    derived.release();
    expect(derived.count).toBe(0);
    expect(texts.count).toBe(0);
    expect(texts.all).toEqual([]);
  });
});
