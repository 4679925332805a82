import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, buildWeb, webBuildIsStale } from './web-build.ts';
import { WORKER_NODE_FLAGS } from './worker-flags.ts';

// `npm start`: build the portal if it is missing or older than its sources, then run the server
// in the embedded mode (SQLite, built-in sign-in, demo data) unless the environment says otherwise.
//
// `npm start -- --role=worker` (or DATALAB_ROLE=worker) runs download jobs only: no portal to build, and the
// process runs with a bounded heap (WORKER_NODE_FLAGS) so that writing a 1,000,000-row Parquet or XLSX file stays
// well inside a worker's memory (bench `downloads`). V8's heap flags must be given at launch, hence a child process;
// NODE_OPTIONS naming its own heap flags wins.

function roleOf(argv: string[]): string | undefined {
  const at = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (at < 0) return process.env['DATALAB_ROLE'];
  const arg = argv[at]!;
  return arg.includes('=') ? arg.slice('--role='.length) : argv[at + 1];
}

const args = process.argv.slice(2);
const serverEntry = join(ROOT, 'apps/server/src/server.ts');

if (roleOf(args) === 'worker') {
  const ownHeapFlags = /--max-(old|semi)-space-size/.test(process.env['NODE_OPTIONS'] ?? '');
  const child = spawn(process.execPath, [...(ownHeapFlags ? [] : WORKER_NODE_FLAGS), serverEntry, ...args], {
    stdio: 'inherit',
  });
  // The worker shuts down gracefully on SIGTERM/SIGINT (its jobs finish or go back to the queue): pass them on.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (webBuildIsStale()) {
    process.stdout.write('Building the portal (first start, or its sources changed)...\n');
    buildWeb();
  }
  await import('../apps/server/src/server.ts');
}
