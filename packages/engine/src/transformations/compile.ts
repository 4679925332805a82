import { EngineError } from '../errors.ts';
import type { Column, Row } from '../types.ts';
import { evaluate, expressionType, parseExpression, referencedColumns } from './expression.ts';
import type { Rule } from './schema.ts';
import { castCell, compareCells, formatDate, formatNumber, maskCell } from './values.ts';

// A rule compiled against the columns it receives: the columns it hands on, and how it changes the rows.
// Row-by-row rules stream; sort buffers (bounded by sortLimit); limit stops reading early.

export type Stage = { columns: Column[] } & (
  | { kind: 'map'; map: (row: Row) => Row }
  | { kind: 'filter'; test: (row: Row) => boolean }
  | { kind: 'sort'; compare: (a: Row, b: Row) => number }
  | { kind: 'limit'; count: number }
);

export const columnMissing = (name: string) => `Column ${name} does not exist`;

function need(columns: Column[], name: string, field: string): Column {
  const column = columns.find((c) => c.name === name);
  if (!column)
    throw new EngineError('INVALID_TRANSFORMATION', columnMissing(name), {
      errors: { [field]: [columnMissing(name)] },
    });
  return column;
}

function replaceColumn(columns: Column[], name: string, next: Column): Column[] {
  return columns.map((c) => (c.name === name ? next : c));
}

function filterTest(rule: Extract<Rule, { type: 'filter' }>): (row: Row) => boolean {
  const { column, op, value } = rule;
  const has = (cell: unknown) => cell !== null && cell !== undefined;
  switch (op) {
    case 'isNull':
      return (row) => !has(row[column]);
    case 'notNull':
      return (row) => has(row[column]);
    case 'in': {
      const options = value as unknown[];
      return (row) => has(row[column]) && options.some((option) => compareCells(row[column], option) === 0);
    }
    case 'contains':
      return (row) => has(row[column]) && String(row[column]).includes(String(value));
    case 'startsWith':
      return (row) => has(row[column]) && String(row[column]).startsWith(String(value));
    default: {
      const accept = {
        eq: (c: number) => c === 0,
        ne: (c: number) => c !== 0,
        lt: (c: number) => c < 0,
        le: (c: number) => c <= 0,
        gt: (c: number) => c > 0,
        ge: (c: number) => c >= 0,
      }[op];
      // Comparisons with null never hold (as in SQL).
      return (row) => has(row[column]) && value !== null && accept(compareCells(row[column], value));
    }
  }
}

export function compileRule(rule: Rule, columns: Column[], field: string): Stage {
  switch (rule.type) {
    case 'select': {
      const picked = rule.columns.map((name, i) => need(columns, name, `${field}.columns.${i}`));
      return {
        kind: 'map',
        columns: picked,
        map: (row) => Object.fromEntries(picked.map((c) => [c.name, row[c.name]])),
      };
    }
    case 'rename': {
      const from = need(columns, rule.from, `${field}.from`);
      if (rule.to !== rule.from && columns.some((c) => c.name === rule.to)) {
        const message = `Column ${rule.to} already exists`;
        throw new EngineError('INVALID_TRANSFORMATION', message, { errors: { [`${field}.to`]: [message] } });
      }
      const next = columns.map((c) => (c === from ? { name: rule.to, type: c.type } : c));
      return {
        kind: 'map',
        columns: next,
        map: (row) => Object.fromEntries(next.map((c, i) => [c.name, row[columns[i]!.name]])),
      };
    }
    case 'mask': {
      const column = need(columns, rule.column, `${field}.column`);
      return {
        kind: 'map',
        columns: replaceColumn(columns, column.name, { name: column.name, type: 'string' }),
        map: (row) => ({ ...row, [column.name]: maskCell(row[column.name], rule) }),
      };
    }
    case 'filter':
      need(columns, rule.column, `${field}.column`);
      return { kind: 'filter', columns, test: filterTest(rule) };
    case 'sort': {
      const keys = rule.by.map((key, i) => ({
        name: need(columns, key.column, `${field}.by.${i}.column`).name,
        sign: key.direction === 'desc' ? -1 : 1,
      }));
      const compare = (a: Row, b: Row) => {
        for (const key of keys) {
          const c = compareCells(a[key.name], b[key.name]);
          if (c !== 0) return c * key.sign;
        }
        return 0;
      };
      return { kind: 'sort', columns, compare };
    }
    case 'cast': {
      const column = need(columns, rule.column, `${field}.column`);
      return {
        kind: 'map',
        columns: replaceColumn(columns, column.name, { name: column.name, type: rule.to }),
        map: (row) => ({ ...row, [column.name]: castCell(row[column.name], rule.to) }),
      };
    }
    case 'format': {
      const column = need(columns, rule.column, `${field}.column`);
      const format =
        rule.kind === 'date' ? (v: unknown) => formatDate(v, rule.pattern) : (v: unknown) => formatNumber(v, rule);
      return {
        kind: 'map',
        columns: replaceColumn(columns, column.name, { name: column.name, type: 'string' }),
        map: (row) => ({ ...row, [column.name]: format(row[column.name]) }),
      };
    }
    case 'computed': {
      const expr = parseExpression(rule.expression);
      for (const name of referencedColumns(expr)) need(columns, name, `${field}.expression`);
      const type = expressionType(expr, new Map(columns.map((c) => [c.name, c.type])));
      const next = [...columns.filter((c) => c.name !== rule.name), { name: rule.name, type }];
      return { kind: 'map', columns: next, map: (row) => ({ ...row, [rule.name]: evaluate(expr, row) }) };
    }
    case 'limit':
      return { kind: 'limit', columns, count: rule.count };
  }
}
