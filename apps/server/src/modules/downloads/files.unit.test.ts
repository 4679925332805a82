import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CsvRecordCounter } from './files.ts';

// The CSV record counter behind a download's "rows so far" on the COPY path: line ends inside quoted cells (and
// escaped quotes) are not records, wherever the chunks happen to split the bytes.

function csvOf(rows: string[][]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

async function count(text: string, cuts: number[]): Promise<number> {
  const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const counter = new CsvRecordCounter(sink);
  const bytes = Buffer.from(text);
  let from = 0;
  for (const cut of [...cuts.filter((at) => at > 0 && at < bytes.length)].sort((a, b) => a - b)) {
    counter.write(bytes.subarray(from, cut));
    from = cut;
  }
  counter.end(bytes.subarray(from));
  await finished(counter);
  return counter.rows;
}

describe('CsvRecordCounter', () => {
  it('counts records, not line ends inside quoted cells, across any chunk boundaries', async () => {
    const cells = ['plain', 'with, comma', 'two\r\nlines', 'say "hi"', '"', '', 'end\n'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 50; round += 1) {
      const rows = Array.from({ length: 1 + next(40) }, () =>
        Array.from({ length: 3 }, () => cells[next(cells.length)]!),
      );
      const text = csvOf([['a', 'b', 'c'], ...rows]);
      const cuts = Array.from({ length: next(12) }, () => next(text.length));
      expect(await count(text, cuts)).toBe(rows.length);
    }
  });

  it('counts nothing for a header alone, and one row without a final line end as not yet a record', async () => {
    expect(await count('a,b\r\n', [])).toBe(0);
    expect(await count('a,b\r\n1,2', [3])).toBe(0);
    expect(await count('a,b\r\n1,"x\r\ny"\r\n', [7, 8, 9])).toBe(1);
  });
});
