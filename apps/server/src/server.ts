import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DEMO_PASSWORD } from './oidc/accounts.ts';

// The process: read the configuration, build the app, listen, and shut down gracefully on a signal.
// A failed start says exactly what is wrong and exits non-zero.

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

async function main() {
  const startedAt = performance.now();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(explain(error, 0));
  }
  let app;
  try {
    app = await buildApp(config);
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => undefined);
    fail(explain(error, config.port));
  }

  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const lines = [
    ``,
    `Data Lab is running at ${config.publicUrl} (ready in ${seconds} s)`,
    `  API documentation: ${config.publicUrl}/api/docs`,
  ];
  if (config.demo && config.oidc.builtIn) {
    lines.push(`  Demo accounts (password "${DEMO_PASSWORD}"): admin (administrator), analyst, partner (Digital Lab)`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
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
