import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { collect } from '../../test/support/collect.ts';
import { isInMemory, rowsInMemory, type Column, type Row, type RowStream } from '../types.ts';
import { applyTransformations, parseTransformations } from './apply.ts';
import { evaluate, parseExpression } from './expression.ts';
import type { RuleInput } from './schema.ts';

const columns: Column[] = [
  { name: 'id', type: 'integer' },
  { name: 'email', type: 'string' },
  { name: 'amount', type: 'decimal' },
  { name: 'day', type: 'date' },
];
const data: Row[] = [
  { id: 1, email: 'ann@example.com', amount: '10.50', day: '2024-03-01' },
  { id: 2, email: 'bob@example.com', amount: '2.25', day: '2024-01-15' },
  { id: 3, email: null, amount: '1000.00', day: '2024-02-10' },
];

let pulled = 0;
function source(): RowStream {
  pulled = 0;
  async function* rows() {
    for (const row of data) {
      pulled += 1;
      yield { ...row };
    }
  }
  return { columns, rows: rows(), close: async () => undefined };
}

async function run(...rules: RuleInput[]) {
  const result = applyTransformations(source(), [{ rules }], { sortLimit: 100 });
  return { columns: result.columns, rows: await collect(result.rows) };
}

describe('transformations', () => {
  it('select, rename and computed update the columns and the rows', async () => {
    const result = await run(
      { type: 'select', columns: ['id', 'amount'] },
      { type: 'rename', from: 'amount', to: 'total' },
      { type: 'computed', name: 'double', expression: 'total * 2 + id' },
      { type: 'computed', name: 'label', expression: "concat(upper('id-'), id, ' ', coalesce(null, 'x'))" },
    );
    expect(result.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'total', type: 'decimal' },
      { name: 'double', type: 'decimal' },
      { name: 'label', type: 'string' },
    ]);
    expect(result.rows[0]).toEqual({ id: 1, total: '10.50', double: 22, label: 'ID-1 x' });
  });

  it('masks fully, partially and by salted SHA-256; nulls stay null', async () => {
    const partial = await run({ type: 'mask', column: 'email', mode: 'partial', keepFirst: 2, keepLast: 4 });
    expect(partial.rows.map((r) => r['email'])).toEqual(['an*********.com', 'bo*********.com', null]);
    const full = await run({ type: 'mask', column: 'email', mode: 'full' });
    expect(full.rows[0]?.['email']).toBe('********');
    const hashed = await run({ type: 'mask', column: 'email', mode: 'hash', salt: 's1' });
    expect(hashed.rows[0]?.['email']).toBe(createHash('sha256').update('s1ann@example.com').digest('hex'));
  });

  it('filters with each operator family, comparing decimals exactly', async () => {
    const gt = await run({ type: 'filter', column: 'amount', op: 'gt', value: '10.5' });
    expect(gt.rows.map((r) => r['id'])).toEqual([3]);
    const inList = await run({ type: 'filter', column: 'id', op: 'in', value: [1, 3] });
    expect(inList.rows.map((r) => r['id'])).toEqual([1, 3]);
    const contains = await run({ type: 'filter', column: 'email', op: 'contains', value: 'bob' });
    expect(contains.rows.map((r) => r['id'])).toEqual([2]);
    const isNull = await run({ type: 'filter', column: 'email', op: 'isNull' });
    expect(isNull.rows.map((r) => r['id'])).toEqual([3]);
    const before = await run({ type: 'filter', column: 'day', op: 'lt', value: '2024-02-01' });
    expect(before.rows.map((r) => r['id'])).toEqual([2]);
  });

  it('sorts numerically (nulls last), and refuses to buffer more than the sort limit', async () => {
    const sorted = await run({ type: 'sort', by: [{ column: 'amount', direction: 'desc' }] });
    expect(sorted.rows.map((r) => r['id'])).toEqual([3, 1, 2]);
    const capped = applyTransformations(source(), [{ rules: [{ type: 'sort', by: [{ column: 'id' }] }] }], {
      sortLimit: 2,
    });
    await expect(collect(capped.rows)).rejects.toMatchObject({ code: 'ROW_CAP' });
  });

  it('limit stops pulling from the source', async () => {
    const limited = await run({ type: 'limit', count: 1 });
    expect(limited.rows).toHaveLength(1);
    expect(pulled).toBe(1);
  });

  it('gives rows already in memory the same result, at once and still in memory', async () => {
    const rules: RuleInput[][] = [
      [{ type: 'mask', column: 'email', mode: 'partial', keepFirst: 1, keepLast: 4 }],
      [{ type: 'filter', column: 'amount', op: 'gt', value: '5' }],
      [
        { type: 'sort', by: [{ column: 'amount', direction: 'desc' }] },
        { type: 'limit', count: 2 },
      ],
      [
        { type: 'computed', name: 'double', expression: 'id * 2' },
        { type: 'select', columns: ['double', 'id'] },
      ],
      [
        { type: 'rename', from: 'email', to: 'contact' },
        { type: 'limit', count: 0 },
      ],
    ];
    for (const set of rules) {
      const streamed = await run(...set);
      const memory = applyTransformations(
        { columns, rows: rowsInMemory(data.map((row) => ({ ...row }))), close: async () => undefined },
        [{ rules: set }],
        { sortLimit: 100 },
      );
      expect(isInMemory(memory.rows), JSON.stringify(set)).toBe(true);
      expect({ columns: memory.columns, rows: await collect(memory.rows) }, JSON.stringify(set)).toEqual(streamed);
    }
    expect(() =>
      applyTransformations(
        { columns, rows: rowsInMemory(data), close: async () => undefined },
        [{ rules: [{ type: 'sort', by: [{ column: 'id' }] }] }],
        { sortLimit: 2 },
      ),
    ).toThrow(expect.objectContaining({ code: 'ROW_CAP' }));
  });

  it('casts and formats', async () => {
    const result = await run(
      { type: 'cast', column: 'amount', to: 'integer' },
      { type: 'format', column: 'day', kind: 'date', pattern: 'DD/MM/YYYY' },
    );
    expect(result.rows[0]).toMatchObject({ amount: 10, day: '01/03/2024' });
    expect(result.columns.find((c) => c.name === 'amount')?.type).toBe('integer');
    const number = await run({
      type: 'format',
      column: 'amount',
      kind: 'number',
      decimals: 1,
      thousandsSeparator: ',',
    });
    expect(number.rows.map((r) => r['amount'])).toEqual(['10.5', '2.3', '1,000.0']);
  });

  it('groups the thousands of a very long number in one pass', async () => {
    const digits = '9'.repeat(100_000);
    const stream: RowStream = {
      columns,
      rows: rowsInMemory([{ ...data[0], amount: digits }]),
      close: async () => undefined,
    };
    const rule: RuleInput = { type: 'format', column: 'amount', kind: 'number', thousandsSeparator: ' ' };
    const started = performance.now();
    const [row] = await collect(applyTransformations(stream, [{ rules: [rule] }], { sortLimit: 10 }).rows);
    // A regex lookahead per digit took seconds here (quadratic); one pass takes milliseconds.
    expect(performance.now() - started).toBeLessThan(250);
    expect(row?.['amount']).toBe(`9${' 999'.repeat(33_333)}`);
  });

  it('names the rule and field when a column does not exist, and checks rule shapes', () => {
    try {
      applyTransformations(
        source(),
        [
          {
            rules: [
              { type: 'rename', from: 'id', to: 'x' },
              { type: 'select', columns: ['id'] },
            ],
          },
        ],
        { sortLimit: 10 },
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).errors).toEqual({ '0.rules.1.columns.0': ['Column id does not exist'] });
    }
    expect(() => parseTransformations([{ rules: [{ type: 'computed', name: 'x', expression: 'eval(1)' }] }])).toThrow(
      EngineError,
    );
    expect(() => parseTransformations([{ rules: [{ type: 'filter', column: 'a', op: 'eq' }] }])).toThrow(EngineError);
  });
});

describe('expression language', () => {
  it('evaluates arithmetic with precedence and refuses anything else', () => {
    expect(evaluate(parseExpression('1 + 2 * (3 - 1) % 3'), {})).toBe(2);
    expect(evaluate(parseExpression('"unit price" * qty'), { 'unit price': '2.5', qty: 4 })).toBe(10);
    expect(evaluate(parseExpression('10 / 0'), {})).toBeNull();
    expect(() => parseExpression('constructor.constructor("x")')).toThrow();
    expect(() => parseExpression('process.exit(1)')).toThrow();
    expect(() => parseExpression('a; b')).toThrow();
  });
});
