import { freePort } from '../../apps/server/test/support/ports.ts';
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import NODE_FLAGS from '../../scripts/node-flags.json' with { type: 'json' };
import { ensureServerBuild } from '../../scripts/server-build.ts';
import { fetchClient } from '../../apps/server/test/support/http.ts';
import { signIn } from '../../apps/server/test/support/sign-in.ts';
import { launch, stop, waitFor200 } from './processes.ts';

// Starts the real server as `npm start` runs it — its JavaScript bundle (scripts/server-build.ts), built first when
// stale — on a free port. A checkout from before the bundle existed (`root`, for --before) runs its sources.

export const ROOT = resolve(import.meta.dirname, '../..');
const SERVER_ENTRY = 'apps/server/dist/server.js';
const SOURCES_ENTRY = 'apps/server/src/server.ts';

/** The entry to run in `root`, its bundle built when it can be. */
export async function serverEntry(root = ROOT): Promise<string> {
  if (root === ROOT) {
    await ensureServerBuild();
    return SERVER_ENTRY;
  }
  if (!existsSync(join(root, 'scripts/server-build.ts'))) return SOURCES_ENTRY;
  // Built when its sources are newer than its bundle (a checkout too old to know `--if-stale` builds every time).
  const built = spawnSync(process.execPath, ['scripts/server-build.ts', '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building the server in ${root} failed`);
  return SERVER_ENTRY;
}

export interface DataLabOptions {
  dataDir: string;
  logLevel: string;
  /** Where the server's stdout (pino lines) goes: a file, or 'pipe' to watch for the "running" line. */
  stdout: string | 'pipe';
  /** V8/Node flags; npm start's web flags (scripts/node-flags.json) come first unless these name heap flags. */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Another checkout to run the server from (to compare before/after in one run); default: this one. */
  root?: string;
}

export interface DataLabServer {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  /** performance.now() just before spawn, at the first 200 from /health/ready, and at the "running" line (pipe only). */
  launchedAt: number;
  readyAt: number;
  runningLineAt: () => number | undefined;
}

/** The first 4 kB of stderr, so a failed start can say why without holding a noisy stream in memory. */
function captureStderr(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (text.length < 4_096) text += chunk.toString('utf8');
  });
  return () => text;
}

/** The web process's V8 flags as `npm start` in `root` gives them: another checkout's server runs with its own. */
function webFlags(root: string): string[] {
  const file = join(root, 'scripts/node-flags.json');
  if (root === ROOT || !existsSync(file)) return NODE_FLAGS.web;
  return (JSON.parse(readFileSync(file, 'utf8')) as typeof NODE_FLAGS).web;
}

export async function startDataLab(options: DataLabOptions): Promise<DataLabServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const stdoutFd = options.stdout === 'pipe' ? 'pipe' : openSync(options.stdout, 'a');
  const entry = await serverEntry(options.root);
  // npm start's V8 flags (the checkout's scripts/node-flags.json), unless the bench names heap flags of its own.
  const own = options.nodeArgs ?? [];
  const flags = own.some((arg) => /^--max-(old|semi)-space-size/.test(arg))
    ? own
    : [...webFlags(options.root ?? ROOT), ...own];
  const launchedAt = performance.now();
  const child = launch(process.execPath, [...flags, entry], {
    cwd: options.root ?? ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: options.dataDir, LOG_LEVEL: options.logLevel, ...options.env },
    stdio: ['ignore', stdoutFd, 'pipe'],
  });
  if (typeof stdoutFd === 'number') closeSync(stdoutFd); // the child holds its own copy
  const stderr = captureStderr(child);
  let runningLineAt: number | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (runningLineAt === undefined && chunk.toString('utf8').includes('Data Lab is running'))
      runningLineAt = performance.now();
  });
  try {
    const readyAt = await waitFor200(`${baseUrl}/health/ready`, child);
    return { child, pid: child.pid!, baseUrl, launchedAt, readyAt, runningLineAt: () => runningLineAt };
  } catch (error) {
    await stop(child);
    throw new Error(`Data Lab did not start: ${(error as Error).message}\n${stderr()}`, { cause: error });
  }
}

/**
 * A real access token for the demo administrator, through the login form (see apps/server/test/support/sign-in.ts).
 * The built-in provider only knows the server's PUBLIC_URL, which defaults to http://localhost:PORT.
 */
export async function adminToken(server: DataLabServer): Promise<string> {
  const publicUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
  const tokens = await signIn(fetchClient(), { publicUrl, username: 'admin', password: 'datalab' });
  return tokens.access_token;
}
