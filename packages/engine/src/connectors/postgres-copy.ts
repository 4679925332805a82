import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { EngineError } from '../errors.ts';
import { bindForCopy } from '../sql/bind.ts';
import type { Rule, Transformation } from '../transformations/schema.ts';
import { compileTransformations } from '../transformations/apply.ts';
import type { Column, ColumnType, CopyCsvRequest } from '../types.ts';
import { quoteIdentifier, raceAbort } from './abort.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { formulaSafe } from '../writers/csv.ts';
import { columnTypeOf } from './postgres-types.ts';
import type { PostgresLease } from './postgres.ts';

// The CSV fast path: COPY (query) TO STDOUT. COPY takes no bind parameters, so each value is set in the
// transaction with set_config(name, $1, true) — itself a bound parameter — and read back by current_setting().
// Text cells that a spreadsheet would run as a formula are neutralised in SQL, as the CSV writer does.

/**
 * The code points the CSV writer's formula test starts with (= + - @ tab CR). `ascii(cell)` is the first character's
 * code (0 for an empty text): testing it costs a fraction of a regular expression per cell (1M rows: ~0.8 s less).
 */
const formulaStarts = [...'=+-@\t\r'].map((char) => char.charCodeAt(0)).join(', ');

/** Column types whose text PostgreSQL and the row path spell alike, so a mask can run in SQL: text, varchar. */
const plainText = new Set([25, 1043]);

/** A text literal that does not depend on standard_conforming_strings; undefined for text PostgreSQL cannot hold. */
function literal(text: string): string | undefined {
  if (text.includes('\0')) return undefined;
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

type MaskRule = Extract<Rule, { type: 'mask' }>;

/** The mask rule in SQL, cell for cell the same text as maskCell (values.ts) gives for a text cell. */
function maskSql(x: string, rule: MaskRule): string | undefined {
  const char = literal(rule.maskChar);
  if (rule.mode === 'full') {
    const hidden = literal(rule.maskChar.repeat(8));
    return hidden && `case when ${x} is null then null else ${hidden} end`;
  }
  if (rule.mode === 'hash') {
    const salt = literal(rule.salt);
    return (
      salt && `case when ${x} is null then null else encode(sha256(convert_to(${salt} || ${x}, 'UTF8')), 'hex') end`
    );
  }
  const kept = rule.keepFirst + rule.keepLast;
  return (
    char &&
    `case when ${x} is null then null when length(${x}) <= ${kept} then repeat(${char}, length(${x})) ` +
      `else left(${x}, ${rule.keepFirst}) || repeat(${char}, length(${x}) - ${kept}) || right(${x}, ${rule.keepLast}) end`
  );
}

interface SqlColumn {
  name: string;
  expr: string;
  type: ColumnType;
  /** The cell is text as the row path would give it (a mask may run on it in SQL). */
  text: boolean;
}

/**
 * The select COPY runs: the data source's statement as a subquery, the transformations' column rules as SQL, text
 * cells that a spreadsheet would run as a formula neutralised (as the CSV writer does), and the row limit.
 * Undefined when a rule cannot be expressed exactly in SQL (a mask on a number, say): the row path runs instead.
 */
async function copySelect(
  client: pg.PoolClient,
  sql: string,
  maxRows: number,
  transformations: readonly Transformation[],
): Promise<string | undefined> {
  // LIMIT 0 only describes the columns (with the values already set); nothing is read.
  const described = await client.query(`select * from (${sql}\n) as q limit 0`);
  const source: Column[] = described.fields.map((field) => ({
    name: field.name,
    type: columnTypeOf(field.dataTypeID),
  }));
  // The same checks and messages as the row path (a missing column, a rename onto an existing one).
  compileTransformations(transformations, source);
  let columns: SqlColumn[] = described.fields.map((field, i) => ({
    name: field.name,
    expr: `q.${quoteIdentifier(field.name)}`,
    type: source[i]!.type,
    text: plainText.has(field.dataTypeID),
  }));
  let limit = Math.max(0, Math.floor(maxRows));
  for (const rule of transformations.flatMap((t) => t.rules)) {
    if (rule.type === 'select') columns = rule.columns.map((name) => columns.find((c) => c.name === name)!);
    else if (rule.type === 'rename') columns = columns.map((c) => (c.name === rule.from ? { ...c, name: rule.to } : c));
    else if (rule.type === 'limit') limit = Math.min(limit, rule.count);
    else if (rule.type === 'mask') {
      const index = columns.findIndex((c) => c.name === rule.column);
      const target = columns[index]!;
      const expr = target.text ? maskSql(target.expr, rule) : undefined;
      if (expr === undefined) return undefined;
      columns = columns.with(index, { name: target.name, expr: `(${expr})`, type: 'string', text: true });
    } else return undefined;
  }
  const names = columns.map((c) => c.name);
  if (new Set(names).size !== names.length) {
    throw new EngineError('QUERY_FAILED', 'The CSV export needs distinct column names: give each column its own alias');
  }
  // The header row is COPY's column names: a name a spreadsheet would run as a formula gets its ' here, as the
  // CSV writer gives it (the select's own names need not be distinct, only the subquery's).
  const list = columns.map((c) => {
    const header = quoteIdentifier(formulaSafe(c.name));
    if (c.type !== 'string') return `${c.expr} as ${header}`;
    const cell = `${c.expr}::text`;
    return `case when ascii(${cell}) in (${formulaStarts}) then '''' || ${cell} else ${cell} end as ${header}`;
  });
  return `select ${list.join(', ')} from (${sql}\n) as q limit ${limit}`;
}

export async function copyCsv(
  request: CopyCsvRequest,
  lease: (timeoutMs: number, signal: AbortSignal | undefined) => Promise<PostgresLease>,
): Promise<AsyncIterable<Buffer> | undefined> {
  const statement = bindForCopy(request.sql, request.values, request.parameterTypes);
  const { client, control, finish } = await lease(request.timeoutMs, request.signal);
  let stream: NodeJS.ReadableStream;
  try {
    for (const setting of statement.settings) {
      await raceAbort(client.query('select set_config($1, $2, true)', [setting.name, setting.value]), control.signal);
    }
    const select = await raceAbort(
      copySelect(client, statement.sql, request.maxRows, request.transformations ?? []),
      control.signal,
    );
    if (select === undefined) {
      await finish('end');
      return undefined;
    }
    stream = client.query(copyTo(`COPY (${select}\n) TO STDOUT WITH (FORMAT csv, HEADER true)`));
  } catch (error) {
    await finish(control.signal.aborted ? 'cancel' : 'discard');
    throw mapPostgresError(error, control.signal);
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    let failed = true;
    try {
      for await (const chunk of stream) {
        if (control.signal.aborted) break;
        yield chunk as Buffer;
      }
      failed = control.signal.aborted;
      if (failed) throw mapPostgresError(new Error('aborted'), control.signal);
    } catch (error) {
      throw mapPostgresError(error, control.signal);
    } finally {
      await finish(failed ? 'cancel' : 'end'); // COPY still streaming: stop it on the server
    }
  }
  return chunks();
}
