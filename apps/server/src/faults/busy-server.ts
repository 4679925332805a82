import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

// Test-only: the whole app as its own process, plus a route that holds the event loop for `ms` milliseconds, so that
// faults/overload.test.ts can saturate the loop and time the answers from another process (its clock keeps running
// while this one is blocked). Prints `{"port":N}` once listening; configured by the environment like the server.

const config = loadConfig();
const app = await buildApp(config, {
  logger: false,
  extend: (instance) => {
    instance.get<{ Querystring: { ms?: string } }>('/test/busy', async (request) => {
      const ms = Math.min(Number(request.query.ms ?? 100), 5000);
      const end = performance.now() + ms;
      while (performance.now() < end) {
        // a synchronous stretch of work: nothing else runs in this process meanwhile
      }
      return { busyMs: ms };
    });
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' ? address?.port : undefined })}\n`);
process.on('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
