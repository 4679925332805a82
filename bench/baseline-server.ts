import Fastify from 'fastify';

// The comparison point for current-user: a bare Fastify 5 route (no logger, no hooks, no auth)
// answering the same JSON the real endpoint returned. Run as its own process, like the server.
//   PORT=18082 BODY='{"id":1}' node bench/baseline-server.ts
// BUSY_MICROS=n makes each request spin n µs first: how the rest of a request's cost (the socket write most of all)
// grows with the work a server does (`current-user --baseline-busy-us=15`; bench/RESULTS.md).

const port = Number(process.env.PORT ?? 0);
const body: unknown = JSON.parse(process.env.BODY ?? '{}');
const busyMs = Number(process.env.BUSY_MICROS ?? 0) / 1000;

const app = Fastify({ logger: false });
app.get('/api/Account/GetCurrentUser', async () => {
  if (busyMs > 0) for (const until = performance.now() + busyMs; performance.now() < until;);
  return body;
});
app.get('/health/ready', async () => ({ status: 'ok' }));

await app.listen({ host: '127.0.0.1', port });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
