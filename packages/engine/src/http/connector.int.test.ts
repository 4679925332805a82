import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { isInMemory, runQuery, writeResult } from '../index.ts';
import { JsonRows } from '../types.ts';
import { collect } from '../../test/support/collect.ts';
import { type Handler, type TestServer, json, startServer } from '../../test/support/http-server.ts';
import { type HttpConnector, createHttpConnector } from './connector.ts';
import type { HttpExchange } from './exchange.ts';
import type { HttpSettings } from './settings.ts';
import { httpRequestText } from './template.ts';

// The Web API connector against a real local server: rows and columns, path encoding as the server sees it,
// paging of both kinds up to the row cap, the size cap, the three timeouts, retries (GET only) and the breaker.

let server: TestServer;
const open: HttpConnector[] = [];

beforeAll(async () => {
  server = await startServer((_, response) => json(response, []));
});

afterAll(async () => {
  await server.close();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function connector(settings: Partial<HttpSettings> = {}, handler?: Handler): HttpConnector {
  if (handler) server.handle(handler);
  const created = createHttpConnector({
    baseUrl: `${server.url}/api`,
    allowedHosts: [`127.0.0.1:${server.port}`],
    retryDelayMs: 10,
    ...settings,
  });
  open.push(created);
  return created;
}

async function rowsOf(
  c: HttpConnector,
  definition: Record<string, unknown> = {},
  values: Record<string, unknown> = {},
  readLimit?: number,
) {
  const exchanges: HttpExchange[] = [];
  const stream = await c.request({
    definition,
    values,
    timeoutMs: 5_000,
    onExchange: (e) => exchanges.push(e),
    ...(readLimit === undefined ? {} : { readLimit }),
  });
  return { columns: stream.columns, rows: await collect(stream.rows), exchanges };
}

async function failure(work: Promise<unknown>): Promise<EngineError> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an engine error, got ${String(error)}`);
  return error;
}

function since(start: number) {
  return server.seen.slice(start);
}

describe('rows and the request', () => {
  it('runs through runQuery: parameters checked, rows at the rows path, columns inferred, transformations applied', async () => {
    const c = connector({}, (request, response) =>
      json(response, {
        data: {
          items: [
            { id: 1, name: 'Ada', joined: '2024-01-02', score: 1.5, tags: ['a'] },
            { id: 2, name: 'Bob', joined: '2024-02-03', score: 2, tags: [] },
          ],
        },
        echo: request.url,
      }),
    );
    const start = server.seen.length;
    const exchanges: HttpExchange[] = [];
    const result = await runQuery({
      connector: c,
      sql: httpRequestText({ path: '/people/{region}', query: { min: '{min}' }, rowsPath: 'data.items' }),
      parameters: [
        { name: 'region', type: 'string', required: true, list: false },
        { name: 'min', type: 'integer', required: false, list: false, default: 3 },
      ],
      values: { region: 'EU' },
      transformations: [{ rules: [{ type: 'rename', from: 'name', to: 'person' }] }],
      rowCap: 100,
      timeoutMs: 5_000,
      onExchange: (e) => exchanges.push(e),
    });
    expect(result.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'person', type: 'string' },
      { name: 'joined', type: 'date' },
      { name: 'score', type: 'decimal' },
      { name: 'tags', type: 'json' },
    ]);
    expect(await collect(result.rows)).toEqual([
      { id: 1, person: 'Ada', joined: '2024-01-02', score: 1.5, tags: ['a'] },
      { id: 2, person: 'Bob', joined: '2024-02-03', score: 2, tags: [] },
    ]);
    expect(since(start).map((r) => r.url)).toEqual(['/api/people/EU?min=3']);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ kind: 'request', method: 'GET', status: 200, attempt: 1 });
    expect(exchanges[0]?.bytes.received).toBeGreaterThan(50);
    expect(exchanges[0]?.timings.totalMs).toBeGreaterThan(0);
    expect(exchanges[0]?.timings.headersMs).toBeGreaterThanOrEqual(0);
    expect(exchanges[0]?.timings.bodyMs).toBeGreaterThanOrEqual(0);
  });

  it('refuses bad parameter values before anything is sent', async () => {
    const c = connector();
    const start = server.seen.length;
    const error = await failure(
      runQuery({
        connector: c,
        sql: httpRequestText({ path: '/people/{region}' }),
        parameters: [{ name: 'region', type: 'string', required: true, list: false }],
        values: {},
        rowCap: 10,
        timeoutMs: 1_000,
      }),
    );
    expect(error.code).toBe('INVALID_PARAMETERS');
    expect(since(start)).toHaveLength(0);
  });

  it('path values with /../, ?, #, @, %2e%2e and a host cannot change the host or climb: the server sees one segment', async () => {
    const c = connector({}, (request, response) => json(response, [{ url: request.url, host: request.headers.host }]));
    const cases: Record<string, string> = {
      'x?admin=1': '/api/items/x%3Fadmin%3D1',
      'x#top': '/api/items/x%23top',
      'me@evil.example': '/api/items/me%40evil.example',
      '%2e%2e': '/api/items/%252e%252e',
      '%2e%2e%2fadmin': '/api/items/%252e%252e%252fadmin',
      'http://evil.example/': '/api/items/http%3A%2F%2Fevil.example%2F',
    };
    for (const [value, path] of Object.entries(cases)) {
      const { rows } = await rowsOf(c, { path: '/items/{id}' }, { id: value });
      expect(rows).toEqual([{ url: path, host: `127.0.0.1:${server.port}` }]);
    }
    for (const value of ['/../', '..', 'a/../../admin']) {
      const start = server.seen.length;
      const error = await failure(rowsOf(c, { path: '/items/{id}' }, { id: value }));
      expect(error.code).toBe('INVALID_PARAMETERS');
      expect(since(start)).toHaveLength(0);
    }
  });

  it('sends the body template with values as JSON values, and POST headers', async () => {
    const c = connector({ headers: { 'X-Tenant': 't1' } }, (request, response) =>
      json(response, [
        {
          body: JSON.parse(request.body) as unknown,
          tenant: request.headers['x-tenant'],
          type: request.headers['content-type'],
        },
      ]),
    );
    const { rows } = await rowsOf(
      c,
      { method: 'POST', path: '/search', body: { q: '{q}', ids: '{ids}' } },
      { q: 'a"b', ids: [1, 2] },
    );
    expect(rows).toEqual([{ body: { q: 'a"b', ids: [1, 2] }, tenant: 't1', type: 'application/json' }]);
  });

  it('answers UPSTREAM_FAILED for an error status, HTML where JSON was expected and a reply that is not JSON', async () => {
    const replies: Record<string, (r: Parameters<Handler>[1]) => void> = {
      '/api/missing': (r) => json(r, { error: 'no' }, 404),
      '/api/html': (r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
      '/api/broken': (r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":'),
    };
    const c = connector({}, (request, response) => replies[request.url]?.(response));
    const messages: string[] = [];
    for (const path of ['/missing', '/html', '/broken']) {
      const error = await failure(rowsOf(c, { path }));
      expect(error.code).toBe('UPSTREAM_FAILED');
      messages.push(error.message);
    }
    expect(messages).toEqual([
      'The web API answered with status 404',
      'The web API answered HTML where JSON was expected',
      "The web API's reply is not JSON",
    ]);
  });
});

describe('paging', () => {
  const people = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));

  it('follows a next link in the body until there is none', async () => {
    const c = connector({}, (request, response) => {
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset') ?? 0);
      const next = offset + 10 < people.length ? `/api/people?offset=${offset + 10}` : null;
      json(response, { items: people.slice(offset, offset + 10), links: { next } });
    });
    const start = server.seen.length;
    const { rows } = await rowsOf(c, {
      path: '/people',
      rowsPath: 'items',
      paging: { kind: 'next', path: 'links.next' },
    });
    expect(rows).toEqual(people);
    expect(since(start).map((r) => r.url)).toEqual(['/api/people', '/api/people?offset=10', '/api/people?offset=20']);
  });

  it('follows the Link header rel="next" and stops at the row cap without asking for more pages', async () => {
    const c = connector({}, (request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('p') ?? 1);
      const link = page < 3 ? `<${server.url}/api/people?p=${page + 1}>; rel="next"` : '';
      json(response, people.slice((page - 1) * 10, page * 10), 200, link ? { link } : {});
    });
    let start = server.seen.length;
    expect((await rowsOf(c, { path: '/people', paging: { kind: 'next' } })).rows).toEqual(people);
    expect(since(start)).toHaveLength(3);
    start = server.seen.length;
    expect((await rowsOf(c, { path: '/people', paging: { kind: 'next' } }, {}, 12)).rows).toEqual(people.slice(0, 12));
    expect(since(start)).toHaveLength(2);
  });

  it('pages by number until a short page, and the connection row cap stops it too', async () => {
    const handler: Handler = (request, response) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const page = Number(query.get('page'));
      const size = Number(query.get('size'));
      json(response, { rows: people.slice((page - 1) * size, page * size) });
    };
    const paging = { kind: 'page', param: 'page', start: 1, size: 10, sizeParam: 'size' };
    let start = server.seen.length;
    const all = await rowsOf(connector({}, handler), { path: '/people', rowsPath: 'rows', paging });
    expect(all.rows).toEqual(people);
    expect(since(start).map((r) => r.url)).toEqual([
      '/api/people?page=1&size=10',
      '/api/people?page=2&size=10',
      '/api/people?page=3&size=10',
    ]);
    start = server.seen.length;
    const capped = await rowsOf(connector({ maxRows: 15 }, handler), { path: '/people', rowsPath: 'rows', paging });
    expect(capped.rows).toEqual(people.slice(0, 15));
    expect(since(start)).toHaveLength(2);
  });

  it('close() while a page is in flight cancels it and frees the connection slot', async () => {
    const c = connector({ maxConnections: 1, acquireTimeoutMs: 300 }, (request, response) => {
      if (request.url === '/api/first') json(response, { items: [{ a: 1 }], next: '/api/slow' });
      else if (request.url === '/api/one') json(response, { items: [{ b: 2 }] });
    });
    const stream = await c.request({
      definition: { path: '/first', rowsPath: 'items', paging: { kind: 'next', path: 'next' } },
      values: {},
      timeoutMs: 10_000,
    });
    const rows = stream.rows[Symbol.asyncIterator]();
    expect((await rows.next()).value).toEqual({ a: 1 });
    const pending = rows.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await stream.close();
    expect((await failure(pending)).code).toBe('CANCELLED');
    expect(performance.now() - started).toBeLessThan(500);
    expect((await rowsOf(c, { path: '/one', rowsPath: 'items' })).rows).toEqual([{ b: 2 }]);
  });

  it('a run whose rows fit one page ends with that page: rows in memory, the connection slot free at once', async () => {
    const c = connector({ maxConnections: 1, acquireTimeoutMs: 300 }, (request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1);
      const next = page * 10 < people.length ? `/api/people?page=${page + 1}` : null;
      json(response, { items: people.slice((page - 1) * 10, page * 10), next });
    });
    const single = await c.request({ definition: { path: '/people', rowsPath: 'items' }, values: {}, timeoutMs: 5000 });
    expect(isInMemory(single.rows)).toBe(true);
    // Not read yet, and the slot is already free: a second run goes through at once.
    const capped = await c.request({
      definition: { path: '/people', rowsPath: 'items', paging: { kind: 'next', path: 'next' } },
      values: {},
      timeoutMs: 5000,
      readLimit: 4,
    });
    expect(isInMemory(capped.rows)).toBe(true);
    expect(await collect(capped.rows)).toEqual(people.slice(0, 4));
    expect(await collect(single.rows)).toEqual(people.slice(0, 10));
    // A run with pages left streams, and holds its slot until its rows are read.
    const paged = await c.request({
      definition: { path: '/people', rowsPath: 'items', paging: { kind: 'next', path: 'next' } },
      values: {},
      timeoutMs: 5000,
    });
    expect(isInMemory(paged.rows)).toBe(false);
    expect(await collect(paged.rows)).toEqual(people);
  });

  it('copies a compact page as its bytes and parses any other, with the same columns and rows either way', async () => {
    const rows = [
      { id: 1, at: '2024-01-03T08:20:00Z', note: 'a "b" é' },
      { id: 2.5, at: null, note: '' },
    ];
    let pretty = false;
    const c = connector({}, (request, response) => {
      const text = JSON.stringify({ page: 1, data: rows }, null, pretty ? 2 : undefined);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
    });
    const run = () => c.request({ definition: { path: '/rows', rowsPath: 'data' }, values: {}, timeoutMs: 5000 });
    const compact = await run();
    pretty = true;
    const spread = await run();
    // A row across lines cannot be copied as it is (a reply keeps each row on a line of its own): parsed.
    expect(compact.rows).toBeInstanceOf(JsonRows);
    expect(spread.rows).not.toBeInstanceOf(JsonRows);
    const columns = [
      { name: 'id', type: 'decimal' },
      { name: 'at', type: 'datetime' },
      { name: 'note', type: 'string' },
    ];
    expect(compact.columns).toEqual(columns);
    expect(spread.columns).toEqual(columns);
    expect(await collect(compact.rows)).toEqual(rows);
    expect(await collect(spread.rows)).toEqual(rows);
    // Through runQuery and the JSON writer: the bytes copied make the same reply as the values written.
    const replies = await Promise.all(
      [false, true].map(async (prettyReply) => {
        pretty = prettyReply;
        const result = await runQuery({
          connector: c,
          sql: httpRequestText({ path: '/rows', rowsPath: 'data' }),
          rowCap: 100,
          timeoutMs: 5000,
        });
        const out = new PassThrough();
        const chunks: Buffer[] = [];
        out.on('data', (chunk: Buffer) => chunks.push(chunk));
        await writeResult('json', result, out, { maxRows: 10 });
        return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { rows: unknown[] };
      }),
    );
    expect(replies[0]!.rows).toEqual(rows);
    expect(replies[1]!.rows).toEqual(rows);
  });

  it('a scanned first page of many is read as values, then the next pages', async () => {
    const c = connector({}, (request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1);
      json(response, { items: people.slice((page - 1) * 10, page * 10) });
    });
    const { rows } = await rowsOf(c, {
      path: '/people',
      rowsPath: 'items',
      paging: { kind: 'page', param: 'page', start: 1, size: 10 },
    });
    expect(rows).toEqual(people);
  });

  it('stops when a next link repeats a page already read', async () => {
    const c = connector({}, (_, response) => json(response, { items: [{ a: 1 }], next: '/api/people' }));
    const start = server.seen.length;
    const { rows } = await rowsOf(c, { path: '/people', rowsPath: 'items', paging: { kind: 'next', path: 'next' } });
    expect(rows).toEqual([{ a: 1 }]);
    expect(since(start)).toHaveLength(1);
  });
});

describe('size cap and timeouts', () => {
  it('refuses a reply over the size cap: declared, streamed without a length, and a gzip bomb', async () => {
    const big = JSON.stringify([{ text: 'x'.repeat(10_000) }]);
    const bomb = gzipSync(Buffer.from(JSON.stringify([{ text: ' '.repeat(2_000_000) }])));
    const c = connector({ maxReplyBytes: 4_096 }, (request, response) => {
      if (request.url === '/api/declared') json(response, JSON.parse(big));
      else if (request.url === '/api/chunked') {
        response.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 10; i += 1) response.write(big.slice(i * 1000, (i + 1) * 1000));
        response.end(big.slice(10_000));
      } else response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb);
    });
    expect(bomb.length).toBeLessThan(4_096);
    for (const path of ['/declared', '/chunked', '/bomb']) {
      const error = await failure(rowsOf(c, { path }));
      expect(error.code, path).toBe('TOO_LARGE');
      expect(error.message).toBe("The web API's reply is larger than the limit of 4096 bytes");
    }
  });

  it('reads a gzip reply within the cap', async () => {
    const c = connector({}, (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync('[{"a":1}]'));
    });
    expect((await rowsOf(c)).rows).toEqual([{ a: 1 }]);
  });

  it('times out waiting for the headers, and for a body that stalls or trickles after them', async () => {
    const timers: NodeJS.Timeout[] = [];
    const c = connector({ headersTimeoutMs: 200, bodyTimeoutMs: 400, retries: 0 }, (request, response) => {
      if (request.url === '/api/stall-headers') return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[{"a":');
      // A byte every 100 ms never leaves the socket idle for the body timeout: only the whole-body limit stops it.
      if (request.url === '/api/trickle-body') timers.push(setInterval(() => response.write(' '), 100));
    });
    let started = performance.now();
    const headers = await failure(rowsOf(c, { path: '/stall-headers' }));
    expect(headers.code).toBe('TIMEOUT');
    expect(headers.message).toBe('The web API did not answer in time');
    expect(performance.now() - started).toBeLessThan(2_000);
    for (const path of ['/stall-body', '/trickle-body']) {
      started = performance.now();
      const body = await failure(rowsOf(c, { path }));
      expect(body.code, path).toBe('TIMEOUT');
      expect(body.message).toBe('The web API did not send its whole reply in time');
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    timers.forEach(clearInterval);
  });

  it('times out connecting when the connection cannot be opened in time', async () => {
    const c = createHttpConnector(
      { baseUrl: `http://slow.test:${server.port}`, allowedHosts: ['slow.test'], connectTimeoutMs: 200, retries: 0 },
      {
        resolve: () =>
          new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 2_000)),
      },
    );
    open.push(c);
    const started = performance.now();
    const error = await failure(rowsOf(c));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toBe('The web API did not accept the connection in time');
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('retries and the circuit breaker', () => {
  it('retries GET after a 503 and a dropped connection, never POST', async () => {
    let calls = 0;
    const flaky: Handler = (request, response) => {
      calls += 1;
      if (request.url.includes('drop') && calls === 1) response.socket?.destroy();
      else if (calls === 1) json(response, { error: 'busy' }, 503);
      else json(response, [{ ok: true }]);
    };
    calls = 0;
    let c = connector({}, flaky);
    const get = await rowsOf(c, { path: '/503' });
    expect(get.rows).toEqual([{ ok: true }]);
    expect(calls).toBe(2);
    expect(get.exchanges.map((e) => [e.attempt, e.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    calls = 0;
    expect((await rowsOf(c, { path: '/drop' })).rows).toEqual([{ ok: true }]);
    expect(calls).toBe(2);
    calls = 0;
    c = connector({}, flaky);
    const post = await failure(rowsOf(c, { method: 'POST', path: '/503', body: {} }));
    expect(post.message).toBe('The web API answered with status 503');
    expect(calls).toBe(1);
  });

  it('gives up after the configured retries', async () => {
    let calls = 0;
    const c = connector({ retries: 2 }, (_, response) => {
      calls += 1;
      json(response, {}, 502);
    });
    expect((await failure(rowsOf(c))).message).toBe('The web API answered with status 502');
    expect(calls).toBe(3);
  });

  it('opens after consecutive failures, answers fast while open, and recovers through a probe', async () => {
    let healthy = false;
    let calls = 0;
    const c = connector({ retries: 0, breaker: { failureThreshold: 2, cooldownMs: 300 } }, (_, response) => {
      calls += 1;
      if (healthy) json(response, [{ ok: 1 }]);
      else json(response, {}, 500);
    });
    for (let i = 0; i < 2; i += 1)
      expect((await failure(rowsOf(c))).message).toBe('The web API answered with status 500');
    expect(calls).toBe(2);
    const started = performance.now();
    const open = await failure(rowsOf(c));
    expect(performance.now() - started).toBeLessThan(50);
    expect(open.code).toBe('UPSTREAM_FAILED');
    expect(open.message).toMatch(/^The web API at 127\.0\.0\.1:\d+ is failing; calls to it are paused/);
    expect(calls).toBe(2);
    healthy = true;
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await rowsOf(c)).rows).toEqual([{ ok: 1 }]);
    expect((await rowsOf(c)).rows).toEqual([{ ok: 1 }]);
    expect(calls).toBe(4);
  });

  it('a failed probe opens the circuit again', async () => {
    let calls = 0;
    const c = connector({ retries: 0, breaker: { failureThreshold: 1, cooldownMs: 200 } }, (_, response) => {
      calls += 1;
      json(response, {}, 500);
    });
    await failure(rowsOf(c));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await failure(rowsOf(c))).message).toBe('The web API answered with status 500');
    expect((await failure(rowsOf(c))).message).toMatch(/paused/);
    expect(calls).toBe(2);
  });
});
