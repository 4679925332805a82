import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { EngineError } from '../errors.ts';
import { bindForCopy } from '../sql/bind.ts';
import type { CopyCsvRequest } from '../types.ts';
import { quoteIdentifier, raceAbort } from './abort.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { columnTypeOf } from './postgres-types.ts';
import type { PostgresLease } from './postgres.ts';

// The CSV fast path: COPY (query) TO STDOUT. COPY takes no bind parameters, so each value is set in the
// transaction with set_config(name, $1, true) — itself a bound parameter — and read back by current_setting().
// Text cells that a spreadsheet would run as a formula are neutralised in SQL, as the CSV writer does.

const formulaStart = `'^[=+\\-@\\t\\r]'`;

async function neutralisedSelect(client: pg.PoolClient, sql: string, maxRows: number): Promise<string> {
  // LIMIT 0 only describes the columns (with the values already set); nothing is read.
  const described = await client.query(`select * from (${sql}\n) as q limit 0`);
  const names = described.fields.map((field) => field.name);
  if (new Set(names).size !== names.length) {
    throw new EngineError('QUERY_FAILED', 'The CSV export needs distinct column names: give each column its own alias');
  }
  const list = described.fields.map((field) => {
    const column = `q.${quoteIdentifier(field.name)}`;
    if (columnTypeOf(field.dataTypeID) !== 'string') return column;
    const safe = `case when ${column}::text ~ ${formulaStart} then '''' || ${column}::text else ${column}::text end`;
    return `${safe} as ${quoteIdentifier(field.name)}`;
  });
  return `select ${list.join(', ')} from (${sql}\n) as q limit ${Math.max(0, Math.floor(maxRows))}`;
}

export async function copyCsv(
  request: CopyCsvRequest,
  lease: (timeoutMs: number, signal: AbortSignal | undefined) => Promise<PostgresLease>,
): Promise<AsyncIterable<Buffer>> {
  const statement = bindForCopy(request.sql, request.values, request.parameterTypes);
  const { client, control, finish } = await lease(request.timeoutMs, request.signal);
  let stream: NodeJS.ReadableStream;
  try {
    for (const setting of statement.settings) {
      await raceAbort(client.query('select set_config($1, $2, true)', [setting.name, setting.value]), control.signal);
    }
    const select = await raceAbort(neutralisedSelect(client, statement.sql, request.maxRows), control.signal);
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
      await finish(failed ? 'cancel' : 'commit'); // COPY still streaming: stop it on the server
    }
  }
  return chunks();
}
