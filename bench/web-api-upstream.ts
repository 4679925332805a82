import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

// The upstream Web API of the web-api bench, as its own process: plain node:http, every reply prebuilt at start so
// the upstream costs little next to what it serves. Rows are the peers' orders (bench/peers/orders.sql: the same
// deterministic id, customer, region, amount, time and 40-character note), as JSON a Web API would send.
//   GET /v1/rows?page=N    (N = 1..ROWS_PAGES) 100 rows: { "page": N, "data": [...] }
//   GET /v1/export?page=N  EXPORT_PAGE_ROWS rows: { "data": [...], "next": "/v1/export?page=N+1" } (none on the last
//                          page), EXPORT_ROWS rows in all
//   GET /v1/fail           503, always (the circuit breaker's failing upstream)
//   GET /v1                { "ok": true } (a connection test)
//   GET /stats             how many requests each endpoint answered, for the bench to check what reached it
// /v1/* wants X-Api-Key: API_KEY (401 otherwise), as a real upstream would.
//   PORT=18090 API_KEY=k EXPORT_ROWS=100000 node bench/web-api-upstream.ts

const port = Number(process.env.PORT ?? 0);
const apiKey = process.env.API_KEY ?? 'bench-upstream-key';
const rowsPages = Number(process.env.ROWS_PAGES ?? 1000);
const rowsPerPage = 100;
const exportRows = Number(process.env.EXPORT_ROWS ?? 100_000);
const exportPageRows = Number(process.env.EXPORT_PAGE_ROWS ?? 1000);

const REGIONS = ['north', 'south', 'east', 'west', 'central'];
const START = Date.parse('2024-01-01T00:00:00Z');

/** Order g of load.sql. */
function order(g: number) {
  return {
    id: g,
    customer_id: 1 + ((g * 7919) % 10_000),
    region: REGIONS[g % 5],
    amount: ((g * 37) % 100_000) / 100,
    created_at: new Date(START + g * 30_000).toISOString(),
    note: `order note ${createHash('md5').update(String(g)).digest('hex').slice(0, 29)}`,
  };
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, index) => order(first + index));

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Page N of /v1/rows: orders (N-1)*100+1 .. N*100. */
const rowsReplies = Array.from({ length: rowsPages }, (_, index) =>
  json({ page: index + 1, data: range(index * rowsPerPage + 1, rowsPerPage) }),
);
const exportPages = Math.ceil(exportRows / exportPageRows);
const exportReplies = Array.from({ length: exportPages }, (_, index) => {
  const first = index * exportPageRows + 1;
  const count = Math.min(exportPageRows, exportRows - index * exportPageRows);
  const next = index + 1 < exportPages ? `/v1/export?page=${index + 2}` : undefined;
  return json({ data: range(first, count), ...(next ? { next } : {}) });
});
const okReply = json({ ok: true });
const failReply = json({ error: 'Service Unavailable' });
const unauthorized = json({ error: 'missing or wrong X-Api-Key' });
const notFound = json({ error: 'not found' });

const counts = { rows: 0, export: 0, fail: 0, other: 0 };

function send(response: ServerResponse, status: number, body: Buffer): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
}

/** The page number of ?page=N, when it is 1..pages. */
function page(url: string, pages: number): number | undefined {
  const match = /[?&]page=(\d{1,9})(?:&|$)/.exec(url);
  const value = match ? Number(match[1]) : Number.NaN;
  return value >= 1 && value <= pages ? value : undefined;
}

function answer(request: IncomingMessage, response: ServerResponse): void {
  const url = request.url ?? '/';
  const path = url.split('?', 1)[0];
  if (path === '/stats') return send(response, 200, json(counts));
  if (path === '/health') return send(response, 200, okReply);
  if (request.headers['x-api-key'] !== apiKey) return send(response, 401, unauthorized);
  if (path === '/v1/rows') {
    counts.rows += 1;
    const n = page(url, rowsPages);
    return n === undefined ? send(response, 404, notFound) : send(response, 200, rowsReplies[n - 1]!);
  }
  if (path === '/v1/export') {
    counts.export += 1;
    const n = page(url, exportPages) ?? (url.includes('page=') ? undefined : 1);
    return n === undefined ? send(response, 404, notFound) : send(response, 200, exportReplies[n - 1]!);
  }
  if (path === '/v1/fail') {
    counts.fail += 1;
    return send(response, 503, failReply);
  }
  counts.other += 1;
  if (path === '/v1' || path === '/v1/') return send(response, 200, okReply);
  send(response, 404, notFound);
}

const server = createServer((request, response) => {
  // GETs carry no body; drain whatever comes so the socket stays usable.
  request.resume();
  answer(request, response);
});
// Callers keep their sockets between runs (undici's default keep-alive is 4 s; a run of the other side is longer).
server.keepAliveTimeout = 120_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
