import { EngineError } from '../errors.ts';
import { assertReadStatement } from './guard.ts';
import { type Dialect, scanSql } from './scan.ts';

// Rewrites `:name` placeholders to the driver's positional form. Values are only ever handed to the driver as
// bind values; the SQL text never receives one.

export interface BoundStatement {
  sql: string;
  values: unknown[];
}

function valueOf(values: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(values, name)) {
    throw new EngineError('INVALID_PARAMETERS', `The query uses :${name}, which is not a defined parameter`, {
      errors: { [name]: [`${name} is not a defined parameter`] },
    });
  }
  const value = values[name];
  return value === undefined ? null : value;
}

/**
 * PostgreSQL: `:name` → `$n`, one number per name. A list is bound as one array value: the author writes
 * `= ANY(:ids)`, not `IN (:ids)`.
 */
function bindPostgres(sql: string, values: Record<string, unknown>): BoundStatement {
  const numbers = new Map<string, number>();
  const bound: unknown[] = [];
  const text = scanSql(sql, 'postgres')
    .map((segment) => {
      if (segment.kind === 'text') return segment.text;
      let n = numbers.get(segment.name);
      if (n === undefined) {
        bound.push(valueOf(values, segment.name));
        n = bound.length;
        numbers.set(segment.name, n);
      }
      return `$${n}`;
    })
    .join('');
  return { sql: text, values: bound };
}

/**
 * MySQL/MariaDB and SQLite: every occurrence becomes `?`. A list expands to `?, ?, ?` with each element bound,
 * so `IN (:ids)` works; an empty list becomes `NULL`, which matches nothing in an IN list.
 */
function bindQuestionMarks(sql: string, values: Record<string, unknown>, dialect: Dialect): BoundStatement {
  const bound: unknown[] = [];
  const text = scanSql(sql, dialect)
    .map((segment) => {
      if (segment.kind === 'text') return segment.text;
      const value = valueOf(values, segment.name);
      if (!Array.isArray(value)) {
        bound.push(value);
        return '?';
      }
      if (value.length === 0) return 'NULL';
      bound.push(...(value as unknown[]));
      return value.map(() => '?').join(', ');
    })
    .join('');
  return { sql: text, values: bound };
}

export function bindNamed(sql: string, values: Record<string, unknown>, dialect: Dialect): BoundStatement {
  assertReadStatement(sql, dialect);
  return dialect === 'postgres' ? bindPostgres(sql, values) : bindQuestionMarks(sql, values, dialect);
}

const pgTypeOf: Record<string, string> = {
  string: 'text',
  integer: 'bigint',
  decimal: 'numeric',
  boolean: 'boolean',
  date: 'date',
  'date-time': 'timestamptz',
};

export interface CopyStatement {
  /** SQL that reads each value back with current_setting(); no value appears in it. */
  sql: string;
  /** set_config calls to run first, each with the value as a bind parameter. */
  settings: { name: string; value: string }[];
}

/**
 * COPY takes no bind parameters. Each value is set in the transaction with `set_config(name, $1, true)` (a bound
 * parameter) and the placeholder becomes `current_setting(name)::type`; a list travels as a JSON array.
 */
export function bindForCopy(
  sql: string,
  values: Record<string, unknown>,
  types: Record<string, { type: string; list?: boolean }>,
): CopyStatement {
  assertReadStatement(sql, 'postgres');
  const settings: CopyStatement['settings'] = [];
  const seen = new Map<string, string>();
  const text = scanSql(sql, 'postgres')
    .map((segment) => {
      if (segment.kind === 'text') return segment.text;
      const existing = seen.get(segment.name);
      if (existing) return existing;
      const value = valueOf(values, segment.name);
      const declared = types[segment.name] ?? { type: 'string' };
      const pgType = pgTypeOf[declared.type];
      if (!pgType) throw new EngineError('INVALID_PARAMETERS', `Unsupported type ${declared.type}`);
      const arrayType = declared.list ? `${pgType}[]` : pgType;
      let expression = `(NULL::${arrayType})`; // a constant, not a value
      if (value !== null) {
        const setting = `datalab.p${settings.length + 1}`;
        settings.push({ name: setting, value: declared.list ? JSON.stringify(value) : String(value) });
        const read = `current_setting('${setting}')`;
        expression = declared.list
          ? `(ARRAY(SELECT jsonb_array_elements_text(${read}::jsonb))::${arrayType})`
          : `(${read}::${pgType})`;
      }
      seen.set(segment.name, expression);
      return expression;
    })
    .join('');
  return { sql: text, settings };
}
