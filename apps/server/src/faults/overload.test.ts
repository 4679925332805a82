import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLOAD_MESSAGE, OVERLOAD_RETRY_AFTER_SECONDS } from '../plugins/overload.ts';

// The event loop saturated (faults): the app runs as its own process (faults/busy-server.ts) with a
// test-only route that holds its loop; this process sends it work at twice the rate it can do it, plus cheap calls
// and liveness probes, over real sockets, and times every answer with its own clock. With load shedding the backlog
// stays bounded: calls get a fast 503 (product §16's shape, Retry-After) while the loop is saturated, liveness stays
// 200, and calls succeed again once it is not. The same load on the same app with shedding off (the limit 0) is the
// control: nothing is refused and the answers pile up behind the work.

const SERVER = join(import.meta.dirname, 'busy-server.ts');
const LOAD_MS = 3000;
const BUSY_MS = 100;
/** A busy call every 50 ms asks for 2 ms of work per ms: twice what one event loop can do. */
const BUSY_EVERY_MS = 50;
const PROBE_EVERY_MS = 100;
const LIVE_EVERY_MS = 250;

interface Answer {
  kind: 'busy' | 'probe' | 'live';
  status: number;
  ms: number;
  retryAfter: string | undefined;
  body: string;
}

interface Server {
  port: number;
  process: ChildProcess;
  dataDir: string;
}

async function startServer(maxDelayMs: number): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-overload-'));
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DEMO: 'false',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: String(maxDelayMs),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`busy-server exited with ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line).port as number));
  });
  // Shedding is armed two samples after the start (plugins/overload.ts).
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { port, process: child, dataDir };
}

async function stopServer(server: Server | undefined) {
  if (!server) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
  rmSync(server.dataDir, { recursive: true, force: true });
}

/** One call on its own connection, timed from this process. */
function call(port: number, kind: Answer['kind'], path: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          kind,
          status: response.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: response.headers['retry-after'],
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

const PATHS = { busy: `/test/busy?ms=${BUSY_MS}`, probe: '/portal-config.json', live: '/health/live' };

/** Open-loop load: calls leave on schedule whether or not earlier ones were answered. */
async function saturate(port: number): Promise<Answer[]> {
  const pending: Promise<Answer>[] = [];
  const timers = (
    [
      ['busy', BUSY_EVERY_MS],
      ['probe', PROBE_EVERY_MS],
      ['live', LIVE_EVERY_MS],
    ] as const
  ).map(([kind, every]) => setInterval(() => pending.push(call(port, kind, PATHS[kind])), every));
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
  for (const timer of timers) clearInterval(timer);
  return Promise.all(pending);
}

const of = (answers: Answer[], predicate: (answer: Answer) => boolean) => answers.filter(predicate);
const slowest = (answers: Answer[]) => Math.max(...answers.map((answer) => answer.ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe('event loop saturated', () => {
  let shedding: Server | undefined;
  let control: Server | undefined;

  beforeAll(async () => {
    [shedding, control] = await Promise.all([startServer(50), startServer(0)]);
  });
  afterAll(async () => {
    await Promise.all([stopServer(shedding), stopServer(control)]);
  });

  it('refuses new calls with a fast 503 instead of piling them up, keeps liveness green, and recovers', async () => {
    const port = shedding!.port;
    expect((await call(port, 'probe', PATHS.probe)).status).toBe(200);

    const answers = await saturate(port);
    const refused = of(answers, (answer) => answer.status === 503);
    const served = of(answers, (answer) => answer.status === 200);
    expect(refused.length + served.length).toBe(answers.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(of(refused, (answer) => answer.kind === 'busy').length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe(String(OVERLOAD_RETRY_AFTER_SECONDS));
      expect(JSON.parse(answer.body)).toMatchObject({
        title: 'Service unavailable',
        status: 503,
        code: 'unavailable',
        detail: OVERLOAD_MESSAGE,
        requestId: expect.any(String),
      });
    }
    // Liveness is never shed: a saturated process is alive.
    expect(of(answers, (answer) => answer.kind === 'live').every((answer) => answer.status === 200)).toBe(true);
    // A refusal waits for the few stretches of work under way, not for the backlog (measured ≈ 250 ms here).
    const refusedMedianMs = median(refused.map((answer) => answer.ms));
    expect(refusedMedianMs).toBeLessThan(1000);

    // The same load with shedding off: every call is served, and the answers pile up behind the work.
    const piled = await saturate(control!.port);
    expect(piled.every((answer) => answer.status === 200)).toBe(true);
    expect(slowest(piled)).toBeGreaterThan(LOAD_MS / 2);
    // Measured on a busy 2-core box: slowest ≈ 0.8 s with shedding against ≈ 3.3 s without; median refusal ≈ 0.23 s.
    expect(slowest(answers)).toBeLessThan(slowest(piled) / 2);
    expect(refusedMedianMs).toBeLessThan(median(piled.map((answer) => answer.ms)) / 2);

    // Once the load stops, calls succeed again (the state is sampled once a second).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call(port, 'probe', PATHS.probe)).status).toBe(200);
    expect((await call(port, 'busy', PATHS.busy)).status).toBe(200);
  });
});
