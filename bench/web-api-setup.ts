import { freePort } from '../apps/server/test/support/ports.ts';
import type { ChildProcess } from 'node:child_process';
import { ROOT, adminToken, type DataLabServer } from './lib/datalab.ts';
import { launch, waitFor200 } from './lib/processes.ts';

// The web-api bench's processes and objects: the upstream (web-api-upstream.ts) and the bare proxy
// (web-api-baseline-server.ts), each its own process, and in Data Lab, made through the management API with the
// signed-in administrator's token, a collection with two Web API connections to the upstream (its loopback host
// allowed: only an administrator who is Owner may) — one for the data, one apart for the failing endpoint, so that
// its open circuit breaker (one per connection and host) never touches the others — an API-key credential on each,
// and three assets.

export const UPSTREAM_KEY = 'bench-upstream-key-not-a-secret';
/** Pages of 100 rows the upstream serves at /v1/rows; the load asks for one at random. */
export const ROWS_PAGES = 1000;
export const EXPORT_PAGE_ROWS = 1000;

export interface Upstream {
  child: ChildProcess;
  pid: number;
  origin: string;
  /** host:port, the allowed-host entry. */
  host: string;
}

export interface UpstreamCounts {
  rows: number;
  export: number;
  fail: number;
  other: number;
}

export async function startUpstream(exportRows: number): Promise<Upstream> {
  const port = await freePort();
  const child = launch(process.execPath, ['bench/web-api-upstream.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      API_KEY: UPSTREAM_KEY,
      ROWS_PAGES: String(ROWS_PAGES),
      EXPORT_ROWS: String(exportRows),
      EXPORT_PAGE_ROWS: String(EXPORT_PAGE_ROWS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor200(`${origin}/health`, child, 30_000);
  return { child, pid: child.pid!, origin, host: `127.0.0.1:${port}` };
}

/** What the upstream has answered so far, per endpoint. */
export async function upstreamCounts(upstream: Upstream): Promise<UpstreamCounts> {
  const response = await fetch(`${upstream.origin}/stats`);
  return (await response.json()) as UpstreamCounts;
}

export async function startBaseline(upstream: Upstream, upstreamConnections: number) {
  const port = await freePort();
  const child = launch(process.execPath, ['bench/web-api-baseline-server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      UPSTREAM: upstream.origin,
      API_KEY: UPSTREAM_KEY,
      UPSTREAM_CONNECTIONS: String(upstreamConnections),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor200(`${baseUrl}/health/ready`, child, 10_000);
  return { child, pid: child.pid!, baseUrl };
}

export interface WebApiAssets {
  /** 100 rows of /v1/rows?page={page}, cache off. */
  rows: string;
  /** Every page of /v1/export, following the `next` links. */
  export: string;
  /** /v1/fail, on its own connection. */
  failing: string;
}

async function post(
  server: DataLabServer,
  token: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function createWebApiAssets(
  server: DataLabServer,
  upstream: Upstream,
  options: { upstreamConnections: number; exportRows: number },
): Promise<WebApiAssets> {
  const token = await adminToken(server);
  const collection = await post(server, token, '/api/DataSourceCollection', { name: 'Bench web API', description: '' });
  const collectionUid = String(collection['uid']);
  const connection = async (name: string) => {
    const { id } = await post(server, token, '/api/WebApiConnection', {
      collectionUid,
      name,
      baseUrl: `${upstream.origin}/v1`,
      allowedHosts: [upstream.host],
      // As many sockets (and simultaneous runs) as the bare route's Pool; every other setting is the default.
      maxConnections: options.upstreamConnections,
    });
    const credential = await post(server, token, '/api/WebApiDataSource/Credentials', {
      connectionId: id,
      name: 'Key',
      kind: 'api-key',
      settings: { in: 'header', name: 'X-Api-Key' },
      secret: UPSTREAM_KEY,
    });
    return { connectionId: Number(id), credentialId: Number(credential['id']) };
  };
  const data = await connection('bench upstream');
  const failingConnection = await connection('bench failing upstream');
  const asset = async (name: string, on: typeof data, extra: Record<string, unknown>) =>
    String((await post(server, token, '/api/WebApiDataSource', { collectionUid, name, ...on, ...extra }))['uid']);
  return {
    rows: await asset('100 rows', data, {
      request: { method: 'GET', path: '/rows', query: { page: '{page}' }, rowsPath: 'data' },
      parameters: [{ name: 'page', type: 'integer', required: true }],
      cacheTtlSeconds: 0,
      rowCap: 1000,
    }),
    export: await asset('All rows, paged', data, {
      request: { method: 'GET', path: '/export', rowsPath: 'data', paging: { kind: 'next', path: 'next' } },
      cacheTtlSeconds: 0,
      maxExportRows: options.exportRows,
    }),
    failing: await asset('Failing upstream', failingConnection, {
      request: { method: 'GET', path: '/fail', rowsPath: 'data' },
      cacheTtlSeconds: 0,
    }),
  };
}
