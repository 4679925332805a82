// @ts-check
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import NODE_FLAGS from './node-flags.json' with { type: 'json' };

// `npm start`: build what is missing or stale (scripts/prepare-start.ts, a process of its own), then run the server
// in the embedded mode (SQLite, built-in sign-in, demo data) unless the environment says otherwise.
//
// This launcher is plain JavaScript and imports the server's JavaScript bundle (scripts/server-build.ts) into this
// process: nothing makes Node load its TypeScript stripper, which would stay in memory for the server's whole life
// (decision 117).
//
// V8's heap flags must be given at launch (node-flags.json, decision 118): package.json's start script gives the web
// flags to this process (a young generation of 2 × 8 MB, and an old generation collected before it grows by
// half again, decision 127); run any other way, the server is
// started as a child process with them. `npm start -- --role=worker` (or DATALAB_ROLE=worker) runs download jobs
// only: no portal to build, and a child process with the worker's flags (a small young generation and a heap ceiling,
// so garbage is collected early instead of piling up to the RSS while a worker writes a 1,000,000-row Parquet or XLSX
// file; the bench `downloads` starts its worker with the same flags). NODE_OPTIONS naming its own heap flags wins.

const ROOT = resolve(import.meta.dirname, '..');
const SERVER_BUNDLE = join(ROOT, 'apps/server/dist/server.js');

/** @param {string[]} argv */
function roleOf(argv) {
  const at = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (at < 0) return process.env['DATALAB_ROLE'];
  const arg = argv[at] ?? '';
  return arg.includes('=') ? arg.slice('--role='.length) : argv[at + 1];
}

/** @param {string[]} flags */
const hasFlags = (flags) => flags.every((flag) => process.execArgv.includes(flag));

async function main() {
  const args = process.argv.slice(2);
  const worker = roleOf(args) === 'worker';
  const prepare = [join(ROOT, 'scripts/prepare-start.ts'), ...(worker ? ['--no-web'] : [])];
  const prepared = spawnSync(process.execPath, prepare, { stdio: 'inherit' });
  if (prepared.status !== 0) process.exit(prepared.status ?? 1);
  const ownHeapFlags = /--max-(old|semi)-space-size/.test(process.env['NODE_OPTIONS'] ?? '');
  const flags = ownHeapFlags ? [] : worker ? NODE_FLAGS.worker : NODE_FLAGS.web;
  if (!worker && hasFlags(flags)) {
    await import(SERVER_BUNDLE);
    return;
  }
  const child = spawn(process.execPath, [...flags, SERVER_BUNDLE, ...args], { stdio: 'inherit' });
  // The server shuts down gracefully on SIGTERM/SIGINT (a worker's jobs finish or go back to the queue): pass them on.
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (import.meta.main) await main();
