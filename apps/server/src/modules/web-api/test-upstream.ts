import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../../../test/support/app.ts';
import { buildTeam, unique, type Person } from '../../../test/support/builders.ts';

// A real upstream Web API for the tests, on a local port (loopback, so a connection must allow its host):
// /v1/items pages through 25 items (page, pageSize) and wants the API key in X-Api-Key; /v1/items/{id}; /v1/fail
// answers 500; /v1/html answers HTML; /v1/echo returns what it was sent. Every request is remembered.

export const UPSTREAM_KEY = 'upstream-key-5b1f-never-shown';

export interface Upstream {
  origin: string;
  /** host:port, as an allowed-host entry. */
  host: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close: () => Promise<void>;
}

const ITEMS = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  name: `Item ${index + 1}`,
  region: index % 2 === 0 ? 'EU' : 'AS',
  price: (index + 1) * 1.5,
}));

export async function startUpstream(): Promise<Upstream> {
  const requests: Upstream['requests'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const url = new URL(request.url ?? '/', 'http://upstream');
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (url.pathname === '/v1' || url.pathname === '/v1/') return json(200, { ok: true });
      if (url.pathname === '/v1/fail') return json(500, { error: 'boom' });
      if (url.pathname === '/v1/html') {
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html>login</html>');
      }
      if (url.pathname === '/v1/echo')
        return json(200, { data: [{ method: request.method, body, query: url.search }] });
      if (request.headers['x-api-key'] !== UPSTREAM_KEY) return json(401, { error: 'missing or wrong key' });
      const single = /^\/v1\/items\/(\d+)$/.exec(url.pathname);
      if (single) return json(200, { data: ITEMS.filter((item) => item.id === Number(single[1])) });
      if (url.pathname === '/v1/items') {
        const region = url.searchParams.get('region');
        const list = region ? ITEMS.filter((item) => item.region === region) : ITEMS;
        const page = Number(url.searchParams.get('page') ?? '1');
        const size = Number(url.searchParams.get('pageSize') ?? '10');
        return json(200, { data: list.slice((page - 1) * size, page * size), page });
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An administrator who owns a collection (so may allow the upstream's loopback host), an Editor and a Reader, with a
 * Web API connection to the upstream and an API-key credential.
 */
export async function webApiWorld(t: TestApp, upstream: Upstream) {
  const { owner, editor, reader, collection } = await buildTeam(t, { owner: { canManageUsers: true } });
  const created = await owner.call('POST', '/api/WebApiConnection', {
    collectionUid: collection.uid,
    name: unique('Upstream'),
    baseUrl: `${upstream.origin}/v1`,
    allowedHosts: [upstream.host],
    retries: 0,
  });
  if (created.statusCode !== 201) throw new Error(`webApiWorld: ${created.statusCode} ${created.body}`);
  const connectionId = created.json<{ id: number }>().id;
  const credential = await owner.call('POST', '/api/WebApiDataSource/Credentials', {
    connectionId,
    name: 'Key',
    kind: 'api-key',
    settings: { in: 'header', name: 'X-Api-Key' },
    secret: UPSTREAM_KEY,
  });
  if (credential.statusCode !== 201) throw new Error(`webApiWorld: ${credential.statusCode} ${credential.body}`);
  return {
    owner,
    editor,
    reader,
    collection,
    connectionId,
    credentialId: credential.json<{ id: number }>().id,
  };
}

export const itemsRequest = {
  method: 'GET',
  path: '/items',
  query: { region: '{region}' },
  rowsPath: 'data',
  paging: { kind: 'page', param: 'page', start: 1, size: 10, sizeParam: 'pageSize' },
} as const;

export async function createItemsAsset(
  editor: Person,
  world: { collection: { uid: string }; connectionId: number; credentialId: number },
  extra: Record<string, unknown> = {},
) {
  return editor.call('POST', '/api/WebApiDataSource', {
    collectionUid: world.collection.uid,
    connectionId: world.connectionId,
    credentialId: world.credentialId,
    name: unique('Items'),
    request: itemsRequest,
    parameters: [{ name: 'region', type: 'string' }],
    ...extra,
  });
}
