import Fastify from 'fastify';
import pg from 'pg';

// The comparison point for calling-layer: a bare Fastify 5 + pg route (bench/peers/README.md has its reference
// figures; ORDER_BY_ID=1) — no logger, no auth, no validation beyond parseInt, a Pool of 10 — on the same orders table.
//   PORT=18083 PGDATABASE=bench_calling node bench/orders-baseline-server.ts

const port = Number(process.env.PORT ?? 0);
const pool = new pg.Pool({
  host: process.env.PGHOST ?? '127.0.0.1',
  port: Number(process.env.PGPORT ?? 5432),
  user: process.env.PGUSER ?? 'postgres',
  database: process.env.PGDATABASE ?? 'bench_calling',
  max: 10,
});
const SQL = 'select * from orders where customer_id = $1 order by id limit 100';

const app = Fastify({ logger: false });
app.get('/orders', async (request, reply) => {
  const id = Number.parseInt((request.query as { customer_id?: string }).customer_id ?? '', 10);
  if (!Number.isInteger(id)) return reply.code(400).send({ error: 'customer_id required' });
  const result = await pool.query(SQL, [id]);
  return result.rows;
});
app.get('/health/ready', async () => ({ status: 'ok' }));

await app.listen({ host: '127.0.0.1', port });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(async () => pool.end())
      .then(() => process.exit(0)),
);
