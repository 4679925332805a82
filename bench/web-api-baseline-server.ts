import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type * as Undici from 'undici';

// The comparison point for the web-api bench: what a hand-written proxy would do — a bare Fastify 5 route (no logger,
// no auth, no validation beyond parseInt) that fetches the upstream's page of 100 rows with undici through one shared
// keep-alive Pool, parses the JSON and replies its rows. The Pool has as many sockets as the Data Lab connection
// (UPSTREAM_CONNECTIONS), and the undici is the one the engine's connector uses (packages/engine's own version).
//   PORT=18091 UPSTREAM=http://127.0.0.1:18090 API_KEY=k node bench/web-api-baseline-server.ts

const engineRequire = createRequire(new URL('../packages/engine/package.json', import.meta.url));
const { Pool } = engineRequire('undici') as typeof Undici;

const port = Number(process.env.PORT ?? 0);
const upstream = process.env.UPSTREAM ?? 'http://127.0.0.1:18090';
const apiKey = process.env.API_KEY ?? 'bench-upstream-key';
const pool = new Pool(upstream, { connections: Number(process.env.UPSTREAM_CONNECTIONS ?? 10) });
const headers = { accept: 'application/json', 'x-api-key': apiKey };

const app = Fastify({ logger: false });
app.get('/rows', async (request, reply) => {
  const page = Number.parseInt((request.query as { page?: string }).page ?? '', 10);
  if (!Number.isInteger(page)) return reply.code(400).send({ error: 'page required' });
  const { statusCode, body } = await pool.request({ path: `/v1/rows?page=${page}`, method: 'GET', headers });
  if (statusCode !== 200) {
    await body.dump();
    return reply.code(502).send({ error: `upstream answered ${statusCode}` });
  }
  const json = (await body.json()) as { data: unknown[] };
  return json.data;
});
app.get('/health/ready', async () => ({ status: 'ok' }));

await app.listen({ host: '127.0.0.1', port });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(async () => pool.close())
      .then(() => process.exit(0)),
);
