import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Format, runQuery, writeResult } from '../index.ts';
import { parameterDefinitionsSchema } from '../parameters/schema.ts';
import { createPostgresTestDatabase, postgresAvailable, type TestDatabase } from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import { createPostgresConnector } from './postgres.ts';

// The pipelined runner (postgres-run.ts) held to pg's client.query, the library path it replaces: the same
// statements through the same public call (runQuery, then a writer), once with each runner, must write the same
// bytes — interactive runs (one packet, texts kept) and streamed ones (batches from a portal), with random values
// bound as parameters and random rows of every column kind the engine types. A seeded generator, so a failure
// replays from its seed.

/** mulberry32: small and deterministic. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const TEXTS = ['north', '', 'a "quoted" word', 'back\\slash', 'tab\there', 'line\nbreak', 'é中😀', '=1+2', '\u0001x'];

/** A random text of characters JSON, CSV and XLSX each treat specially. */
function randomText(random: Random): string {
  if (random() < 0.5) return pick(random, TEXTS);
  const chars = ['a', 'Z', '0', ' ', '"', '\\', ',', '\n', '\r', '\t', 'é', '中', '😀', '<', '&', '\u007f', '\u0002'];
  let text = '';
  const length = Math.floor(random() * 12);
  for (let i = 0; i < length; i += 1) text += pick(random, chars);
  return text;
}

const parameters = parameterDefinitionsSchema.parse([
  { name: 'text', type: 'string' },
  { name: 'n', type: 'integer' },
  { name: 'amount', type: 'decimal' },
]);

/** Every kind of column the engine types, computed from the row number g and the bound values. */
const COLUMNS = [
  `g as id`,
  `(:text)::text as bound_text`,
  `(:n)::int + g as bound_n`,
  `(:amount)::numeric(14, 4) + g as amount`,
  `(g * 1234567890123)::bigint as big`,
  `(9007199254740990 + g)::bigint as huge`,
  `(g / 7.0)::float8 as ratio`,
  `case when g % 3 = 0 then null else 'row ' || g || (:text)::text end as note`,
  `date '2024-02-27' + g as day`,
  `timestamptz '2024-03-01 10:00:00.123+00' + g * interval '37 minutes' as at`,
  `timestamp '1999-12-31 23:59:59' + g * interval '1 second' as local`,
  `g % 2 = 0 as even`,
  `jsonb_build_object('g', g, 't', (:text)::text) as data`,
  `decode(lpad(to_hex(g), 2, '0'), 'hex') as raw`,
  `array[g, g + 1] as pair`,
  `make_interval(days => g) as span`,
  `'x' as dup`,
  `(:text)::text as dup`,
];

function randomStatement(random: Random): { sql: string; values: Record<string, unknown> } {
  const columns = COLUMNS.filter((_, index) => index === 0 || random() < 0.6);
  const rows = Math.floor(random() * 700); // past one streamed batch (250) now and then
  return {
    sql: `select ${columns.join(', ')} from generate_series(1, ${rows}) g order by g`,
    values: {
      text: randomText(random),
      n: Math.floor(random() * 2_000_000) - 1_000_000,
      amount: (random() * 1e6 - 5e5).toFixed(2),
    },
  };
}

async function written(
  connector: Connector,
  format: Format,
  statement: { sql: string; values: Record<string, unknown> },
  readLimit: number | undefined,
): Promise<Buffer> {
  const result = await runQuery({
    connector,
    sql: statement.sql,
    parameters,
    values: statement.values,
    rowCap: 10_000,
    timeoutMs: 10_000,
    ...(readLimit === undefined ? {} : { readLimit }),
  });
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeResult(format, result, out, { maxRows: 10_000, startedAt: 0 });
  const bytes = Buffer.concat(chunks);
  return format === 'json' ? Buffer.from(bytes.toString('utf8').replace(/"durationMs":\d+/, '"durationMs":0')) : bytes;
}

describe.skipIf(!postgresAvailable)('the pipelined PostgreSQL runner against client.query', () => {
  let db: TestDatabase;
  let pipelined: Connector;
  let library: Connector;

  beforeAll(async () => {
    db = await createPostgresTestDatabase();
    pipelined = createPostgresConnector({ ...db.settings, maxConnections: 2 });
    library = createPostgresConnector({ ...db.settings, maxConnections: 2 }, { runner: 'query' });
  });

  afterAll(async () => {
    await pipelined?.close();
    await library?.close();
    await db?.drop();
  });

  it('writes the same JSON, NDJSON and CSV for random statements, read in one packet or streamed', async () => {
    const seed = 7;
    const random = seeded(seed);
    for (let i = 0; i < 40; i += 1) {
      const statement = randomStatement(random);
      const format = pick(random, ['json', 'ndjson', 'csv'] as const);
      // An interactive call reads a known number of rows; an export streams them all.
      const readLimit = random() < 0.5 ? 1 + Math.floor(random() * 300) : undefined;
      const fast = await written(pipelined, format, statement, readLimit);
      const slow = await written(library, format, statement, readLimit);
      expect(fast.toString('utf8'), `seed ${seed}, statement ${i}: ${statement.sql}`).toBe(slow.toString('utf8'));
    }
  });

  it('reports the same errors: a syntax error, a write refused, a bad cast of a bound value', async () => {
    const message = async (connector: Connector, sql: string) =>
      runQuery({ connector, sql, parameters, values: { text: 'x1' }, rowCap: 10, timeoutMs: 5_000 }).then(
        () => 'no error',
        (error: unknown) => String(error),
      );
    for (const sql of ['selec 1', 'create table t (id int)', 'select (:text)::int as n']) {
      const fast = await message(pipelined, sql);
      expect(fast).not.toBe('no error');
      expect(fast, sql).toBe(await message(library, sql));
    }
  });
});
