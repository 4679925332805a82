import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_AUDIENCE } from '../../config.ts';
import { TEST_SQL_HOST_ALLOWLIST } from '../../../test/support/app.ts';
import { freePort } from '../../../test/support/ports.ts';
import { createPostgresDatabase, isPostgresAvailable } from '../../../test/support/stores.ts';
import { signWithServerKey } from '../../../test/support/tokens.ts';
import { TEST_READER, ensureTestReader } from '../../../test/support/readers.ts';

// SIGTERM during a download, with real processes (`node apps/server/src/server.ts`): the job cannot finish within
// the shutdown grace, so the process puts it back (Queued) and exits cleanly, leaving no file and no part file; the
// next process picks it up and completes it once, with every row in one file.

const SERVER = join(import.meta.dirname, '../../server.ts');
const ROWS = 1_000_000;
const postgres = await isPostgresAvailable();

interface Child {
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
  output: () => string;
}

(postgres ? describe : describe.skip)('downloads across SIGTERM [postgres]', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-sigterm-'));
  let store: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let source: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let port: number;
  const children: Child[] = [];

  function startServer(): Child {
    const child = spawn(process.execPath, [SERVER], {
      env: {
        PATH: process.env['PATH'] ?? '',
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: store.url,
        DEMO: 'false',
        LOG_LEVEL: 'warn',
        // Half of it is the jobs' grace: one second, far less than the download takes.
        SHUTDOWN_TIMEOUT_MS: '2000',
        WEB_DIST_DIR: join(dataDir, 'no-web'),
        SQL_HOST_ALLOWLIST: TEST_SQL_HOST_ALLOWLIST,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started: Child = {
      exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
      kill: (signal) => child.kill(signal),
      output: () => output,
    };
    children.push(started);
    return started;
  }

  async function ready() {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the server did not become ready');
  }

  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, text: await response.text() };
  };
  const status = async (id: string) =>
    JSON.parse((await call('GET', `/api/Download/${id}/Status`)).text) as {
      state: string;
      rows: number;
      link: string | null;
    };

  beforeAll(async () => {
    [store, source] = await Promise.all([createPostgresDatabase(), createPostgresDatabase(), ensureTestReader()]);
    port = await freePort();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exited));
    await store?.drop();
    await source?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('puts a running job back on SIGTERM and completes it once in the next process', async () => {
    let server = startServer();
    await ready();
    const now = Math.floor(Date.now() / 1000);
    token = await signWithServerKey(dataDir, {
      iss: `http://127.0.0.1:${port}/oidc`,
      aud: BUILT_IN_AUDIENCE,
      sub: 'sigterm-owner',
      name: 'Owner',
      iat: now,
      exp: now + 3600,
    });
    const me = JSON.parse((await call('GET', '/api/Account/GetCurrentUser')).text) as { id: number };
    const db = new pg.Client({ connectionString: store.url });
    await db.connect();
    const at = new Date().toISOString();
    const collection = await db.query<{ id: number; uid: string }>(
      `insert into collections (uid, name, name_key, description, created_by, created_at, updated_at)
       values ('sigterm', 'Sigterm', 'sigterm', '', $1, $2, $2) returning id, uid`,
      [me.id, at],
    );
    await db.query(
      `insert into collection_user_roles (collection_id, user_id, role, created_at) values ($1, $2, 'Owner', $3)`,
      [collection.rows[0]!.id, me.id, at],
    );
    await db.query('update access_version set version = version + 1');
    await db.end();
    const url = new URL(source.url);
    const connection = await call('POST', '/api/SqlConnection', {
      collectionUid: 'sigterm',
      name: 'Source',
      kind: 'postgres',
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      // An account that may only read: the server refuses a superuser as a data source's account.
      username: TEST_READER,
      poolMax: 2,
      acquireTimeoutMs: 2000,
    });
    expect(connection.status).toBe(201);
    const asset = await call('POST', '/api/SqlDataSource', {
      collectionUid: 'sigterm',
      connectionId: (JSON.parse(connection.text) as { id: number }).id,
      name: 'Many rows',
      // A pause every 50,000 rows (5 s in all): the job is still running when SIGTERM's grace (1 s) ends, however
      // fast the machine.
      sql:
        `select g, md5(g::text) as h from generate_series(1, ${ROWS}) g, ` +
        'lateral (select case when g % 50000 = 0 then pg_sleep(0.25) end as pause) p',
      cacheTtlSeconds: 0,
      rowCap: 1000,
      timeoutMs: 60_000,
      parameters: [],
      transformations: [],
    });
    expect(asset.status).toBe(201);
    const started = await call('POST', '/api/Download', {
      dataAssetUid: (JSON.parse(asset.text) as { uid: string }).uid,
      format: 'ndjson',
    });
    expect(started.status).toBe(202);
    const id = (JSON.parse(started.text) as { id: string }).id;
    for (let i = 0; i < 200; i += 1) {
      const job = await status(id);
      if (job.state === 'Running' && job.rows > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await status(id)).state).toBe('Running');

    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const check = new pg.Client({ connectionString: store.url });
    await check.connect();
    const row = (await check.query('select state, attempts from download_jobs where id = $1', [id])).rows[0] as {
      state: string;
      attempts: number;
    };
    await check.end();
    expect(row).toEqual({ state: 'Queued', attempts: 1 });
    const downloads = join(dataDir, 'downloads');
    expect(readdirSync(downloads).filter((name) => name.startsWith(id))).toEqual([]);

    server = startServer();
    await ready();
    let job = await status(id);
    for (let i = 0; i < 600 && job.state !== 'Completed' && job.state !== 'Failed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await status(id);
    }
    expect(job).toMatchObject({ state: 'Completed', rows: ROWS });
    expect(readdirSync(downloads).filter((name) => name.startsWith(id))).toEqual([`${id}.ndjson`]);
    const lines = readFileSync(join(downloads, `${id}.ndjson`), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(ROWS);
    expect(JSON.parse(lines[ROWS - 1]!)).toMatchObject({ g: ROWS });
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
