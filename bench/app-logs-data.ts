// 1,000,000 realistic application-log records written straight with SQL (one statement, in the store itself), for
// bench/app-logs.ts: messages from a dozen templates with varied names and numbers, levels and categories that go
// with them, users, request ids, spread evenly over the last 30 days in id order (as records are written). The
// same integer hash drives both dialects, so both stores hold the same records. Rare text: 'deadlock' (0.02 %).

export const DAYS = 30;

const hash = 'h';
const pick = (n: number) => `(${hash} % ${n})`;

/** CASE over the hash's last two digits: [message, level, category] per template. */
const TEMPLATES: [upTo: number, message: string, level: string, category: string][] = [
  [40, `'GET /api/DataSource/GetAll answered 200 in ' || ${pick(300)} || ' ms'`, 'info', 'request'],
  [
    60,
    `'Call of asset orders-' || ${pick(500)} || ' answered 200 with ' || ${pick(10000)} || ' rows'`,
    'info',
    'calling',
  ],
  [70, `'User analyst' || ${pick(200)} || ' signed in'`, 'info', 'auth'],
  [78, `'Cache entry results:' || ${pick(1000)} || ' expired after ' || ${pick(3600)} || ' s'`, 'debug', 'cache'],
  [86, `'Data source sales-' || ${pick(50)} || ' was changed by admin'`, 'info', 'audit'],
  [93, `'Connection to warehouse-' || ${pick(20)} || ' timed out after 30000 ms'`, 'warn', 'connection'],
  [
    99,
    `'Query failed on asset orders-' || ${pick(500)} || ': relation "order_lines" does not exist'`,
    'error',
    'calling',
  ],
];
const LAST = `case when (${hash} / 100) % 50 = 0 then 'deadlock detected while writing usage records' else 'Retention removed ' || ${pick(1000)} || ' records older than 30 days' end`;

function caseOf(column: 0 | 1 | 2, last: string): string {
  const arms = TEMPLATES.map((template) => {
    const value = column === 0 ? template[1] : `'${template[column === 1 ? 2 : 3]}'`;
    return `when ${pick(100)} < ${template[0]} then ${value}`;
  });
  return `case ${arms.join(' ')} else ${last} end`;
}

const columns = (createdAt: string) => `
  ${createdAt},
  ${caseOf(1, `case when (${hash} / 100) % 50 = 0 then 'error' else 'info' end`)},
  ${caseOf(2, `'retention'`)},
  ${caseOf(0, LAST)},
  case when ${pick(100)} < 60 then 'req-' || i else null end,
  case when ${pick(100)} < 86 then 1 + ${pick(200)} else null end,
  case when ${pick(100)} >= 93 then '{"method":"GET","url":"/data/v1/orders"}' else null end`;

const INSERT = 'insert into application_logs (created_at, level, category, message, request_id, user_id, details)';

/** Knuth's multiplicative hash of the row number, the same in both dialects (64-bit integers). */
const HASHED = `(i * 2654435761) % 4294967296`;

export function postgresFill(rows: number, start: Date): string {
  const createdAt = `to_char(timestamp '${start.toISOString().replace('T', ' ').replace('Z', '')}' + (i * ${msPerRow(rows)}) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return `${INSERT} select ${columns(createdAt)} from (select i, ${HASHED} as h from generate_series(1::bigint, ${rows}) as i) as s`;
}

export function sqliteFill(rows: number, start: Date): string {
  const createdAt = `strftime('%Y-%m-%dT%H:%M:%fZ', ${start.getTime() / 1000} + i * ${msPerRow(rows) / 1000}, 'unixepoch')`;
  return `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
    ${INSERT} select ${columns(createdAt)} from (select i, ${HASHED} as h from n) as s`;
}

const msPerRow = (rows: number) => Math.floor((DAYS * 86_400_000) / rows);
