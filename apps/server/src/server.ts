import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DEMO_PASSWORD } from './oidc/accounts.ts';

// The process: read the configuration, build the app, listen, and shut down gracefully on a signal.
// A failed start says exactly what is wrong and exits non-zero. `--role=worker` (or DATALAB_ROLE=worker) runs
// download jobs only, with no HTTP port; `--role=web` serves only; the default `all` does both (product §12).

function fail(message: string): never {
  process.stderr.write(`\nData Lab could not start: ${message}\n\n`);
  process.exit(1);
}

function explain(error: unknown, port: number): string {
  const code = (error as { code?: string }).code;
  if (error instanceof ConfigError) return error.message;
  if (code === 'EADDRINUSE')
    return `port ${port} is already in use. Stop the other process or set PORT to a free port.`;
  if (code === 'EACCES') return `not allowed to listen on port ${port}. Choose a port above 1023 with PORT.`;
  return error instanceof Error ? error.message : String(error);
}

/** `--role=<role>` on the command line wins over DATALAB_ROLE. */
function roleArgument(argv: string[]): string | undefined {
  const flag = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (flag < 0) return undefined;
  const arg = argv[flag]!;
  return arg.includes('=') ? arg.slice('--role='.length) : argv[flag + 1];
}

async function main() {
  const startedAt = performance.now();
  let config;
  try {
    const role = roleArgument(process.argv.slice(2));
    config = loadConfig(role === undefined ? process.env : { ...process.env, DATALAB_ROLE: role });
  } catch (error) {
    fail(explain(error, 0));
  }
  let app;
  try {
    app = await buildApp(config);
    // A worker serves no HTTP: ready() starts its download processing (modules/downloads/plugin.ts).
    if (config.role === 'worker') await app.ready();
    else await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => undefined);
    fail(explain(error, config.port));
  }

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  if (config.role === 'worker') {
    process.stdout.write(`\nData Lab worker is running download jobs (ready in ${seconds} s)\n\n`);
  }
  const lines = [
    ``,
    `Data Lab is running at ${config.publicUrl} (ready in ${seconds} s)`,
    `  API documentation: ${config.publicUrl}/api/docs`,
  ];
  if (config.demo && config.oidc.builtIn) {
    lines.push(`  Demo accounts (password "${DEMO_PASSWORD}"): admin (administrator), analyst, partner (Digital Lab)`);
  }
  if (config.role !== 'worker') process.stdout.write(`${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Running download jobs get half of SHUTDOWN_TIMEOUT_MS to finish; then they are put back in the queue.
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
