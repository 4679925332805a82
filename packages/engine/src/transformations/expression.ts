import { type Expr, type FunctionName, parseExpression, referencedColumns } from '@datalab/contract/expression';
import type { ColumnType, Row } from '../types.ts';

// The computed-column language's evaluation: no eval, no Function. Its syntax (the parser, shared with the rule
// schema in the contract) is @datalab/contract/expression. Arithmetic is done in IEEE doubles (say so in the
// README); null in, null out.

export { parseExpression, referencedColumns, type Expr };

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function arithmetic(op: string, a: number, b: number): number | null {
  if (op === '+') return a + b;
  if (op === '-') return a - b;
  if (op === '*') return a * b;
  if (b === 0) return null; // division by zero → null rather than Infinity
  return op === '/' ? a / b : a % b;
}

function call(fn: FunctionName, args: unknown[]): unknown {
  switch (fn) {
    case 'concat':
      return args.map((arg) => text(arg) ?? '').join('');
    case 'coalesce':
      return args.find((arg) => arg !== null && arg !== undefined) ?? null;
    case 'upper':
      return text(args[0])?.toUpperCase() ?? null;
    case 'lower':
      return text(args[0])?.toLowerCase() ?? null;
    case 'trim':
      return text(args[0])?.trim() ?? null;
    case 'length':
      return text(args[0]) === null ? null : [...text(args[0])!].length;
    case 'abs': {
      const n = toNumber(args[0]);
      return n === null ? null : Math.abs(n);
    }
    case 'round': {
      const n = toNumber(args[0]);
      const places = toNumber(args[1] ?? 0) ?? 0;
      if (n === null) return null;
      const factor = 10 ** Math.max(0, Math.min(15, Math.trunc(places)));
      return Math.round(n * factor) / factor;
    }
  }
}

export function evaluate(expr: Expr, row: Row): unknown {
  switch (expr.k) {
    case 'num':
    case 'str':
    case 'lit':
      return expr.v;
    case 'col':
      return row[expr.name] ?? null;
    case 'neg': {
      const n = toNumber(evaluate(expr.e, row));
      return n === null ? null : -n;
    }
    case 'bin': {
      const a = toNumber(evaluate(expr.l, row));
      const b = toNumber(evaluate(expr.r, row));
      return a === null || b === null ? null : arithmetic(expr.op, a, b);
    }
    case 'call':
      return call(
        expr.fn,
        expr.args.map((arg) => evaluate(arg, row)),
      );
  }
}

/** The result type, from the column types the expression reads. */
export function expressionType(expr: Expr, types: Map<string, ColumnType>): ColumnType {
  switch (expr.k) {
    case 'num':
      return Number.isInteger(expr.v) ? 'integer' : 'decimal';
    case 'str':
      return 'string';
    case 'lit':
      return expr.v === null ? 'string' : 'boolean';
    case 'col':
      return types.get(expr.name) ?? 'string';
    case 'neg':
      return expressionType(expr.e, types) === 'integer' ? 'integer' : 'decimal';
    case 'bin': {
      const both = expressionType(expr.l, types) === 'integer' && expressionType(expr.r, types) === 'integer';
      return both && expr.op !== '/' ? 'integer' : 'decimal';
    }
    case 'call':
      if (expr.fn === 'length') return 'integer';
      if (expr.fn === 'abs' || expr.fn === 'round') return 'decimal';
      if (expr.fn === 'coalesce') return expressionType(expr.args[0]!, types);
      return 'string';
  }
}
