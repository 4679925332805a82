import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pgTarget } from './calling-layer.ts';
import { EXPORT_SQL, createAssets, ensureOrders, psql, type PgTarget } from './lib/calling-setup.ts';
import { ROOT, adminToken, serverEntry, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { memoryMB, psqlCopySeconds, timeExport } from './lib/exports.ts';
import { intOption } from './lib/options.ts';
import NODE_FLAGS from '../scripts/node-flags.json' with { type: 'json' };
import { launch, removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult, Verdict } from './lib/types.ts';

// Target: a download of all 1,000,000 orders end to end — POST /api/Download, poll until Completed, fetch
// the file (curl to /dev/null) — as CSV against `psql \copy` of the same rows in the same run (≤ 1.5×), and as
// Parquet and XLSX with their times; the worker's peak RSS (VmHWM) under 250 MB for each. product §12's scale-out
// shape: a web process (DATALAB_ROLE=web) and a worker process (--role=worker, started afresh for each download
// so its VmHWM is that job's peak) on a fresh PostgreSQL metadata database and the machine's Redis.

const TARGETS = { csvRatio: 1.5, workerRssMB: 250 };
const FORMATS = ['csv', 'parquet', 'xlsx'] as const;
type Format = (typeof FORMATS)[number];

interface DownloadRun {
  format: Format;
  /** POST to Completed, as the portal's polling sees it (polled every 50 ms). */
  jobSeconds: number;
  /** Fetching the finished file, timed by curl. */
  fetchSeconds: number;
  totalSeconds: number;
  rows: number;
  bytes: number;
  workerPeakRssMB: number;
}

async function api(server: DataLabServer, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as { id: string; state: string; rows: number; size: number | null; message: string | null };
}

/** A worker process, resolved once it says it runs jobs (its start is not part of a job's time). */
async function startWorker(env: Record<string, string>, nodeOptions: string): Promise<ChildProcess> {
  const child = launch(process.execPath, [await serverEntry(), '--role=worker'], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_OPTIONS: nodeOptions },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Data Lab worker is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}): ${output}`)));
  });
  child.stdout?.resume();
  return child;
}

async function download(
  web: DataLabServer,
  token: string,
  assetUid: string,
  format: Format,
  startNewWorker: () => Promise<ChildProcess>,
): Promise<DownloadRun> {
  const worker = await startNewWorker();
  try {
    const started = performance.now();
    let job = await api(web, token, 'POST', '/api/Download', { dataAssetUid: assetUid, format });
    while (job.state === 'Queued' || job.state === 'Running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = await api(web, token, 'GET', `/api/Download/${job.id}/Status`);
    }
    const jobSeconds = (performance.now() - started) / 1000;
    if (job.state !== 'Completed') throw new Error(`${format} download ${job.state}: ${job.message}`);
    const workerPeakRssMB = memoryMB(worker.pid!, 'VmHWM');
    const fetched = await timeExport(format, `${web.baseUrl}/api/Download/${job.id}/File`, token, web.pid);
    return {
      format,
      jobSeconds: round(jobSeconds, 2),
      fetchSeconds: fetched.seconds,
      totalSeconds: round(jobSeconds + fetched.seconds, 2),
      rows: job.rows,
      bytes: fetched.bytes,
      workerPeakRssMB,
    };
  } finally {
    await stop(worker);
  }
}

export const downloads: Bench = {
  name: 'downloads',
  async run(options): Promise<BenchResult> {
    const target: PgTarget = pgTarget(options);
    const dataset = ensureOrders(target);
    const rounds = intOption(options, 'rounds', 1, 5);
    const formats = (options.formats?.split(',') ?? FORMATS) as Format[];
    const unknown = formats.filter((format) => !FORMATS.includes(format));
    if (unknown.length > 0) throw new Error(`--formats: ${unknown.join(', ')} not one of ${FORMATS.join(', ')}`);
    // The flags `npm start -- --role=worker` gives a worker (scripts/node-flags.json); --worker-node-options to try others.
    const workerNodeOptions = options['worker-node-options'] ?? NODE_FLAGS.worker.join(' ');
    const redisUrl = options['redis-url'] ?? 'redis://127.0.0.1:6379';
    const store = `bench_downloads_${Date.now().toString(36)}`;
    psql(target, ['-c', `create database "${store}"`], 'postgres');
    const dataDir = scratchDir('downloads');
    const env = {
      DATABASE_URL: `postgres://${target.user}@${target.host}:${target.port}/${store}`,
      REDIS_URL: redisUrl,
      DOWNLOAD_QUEUE_PREFIX: `bench-${randomUUID()}`,
      DATA_DIR: dataDir,
      DOWNLOAD_DIR: join(dataDir, 'downloads'),
      MAX_EXPORT_ROWS: '1000000',
      DEMO_SHOP_ORDERS: '2000',
      LOG_LEVEL: 'warn',
    };
    const runs: DownloadRun[] = [];
    const copies: number[] = [];
    const web = await startDataLab({
      dataDir,
      logLevel: 'warn',
      stdout: join(dataDir, 'web.log'),
      env: { ...env, DATALAB_ROLE: 'web' },
    });
    try {
      const assets = await createAssets(web, target, 0);
      const token = await adminToken(web);
      const newWorker = () => startWorker(env, workerNodeOptions);
      for (let round = 0; round < rounds; round += 1) {
        // The floor writes a file on the same disk, as the job does (the job also fsyncs it).
        const copyFile = join(dataDir, 'psql-copy.csv');
        copies.push(psqlCopySeconds(target, EXPORT_SQL, copyFile));
        rmSync(copyFile, { force: true });
        for (const format of formats) runs.push(await download(web, token, assets.exportPlain, format, newWorker));
      }
    } finally {
      await stop(web.child);
      psql(target, ['-c', `drop database if exists "${store}" with (force)`], 'postgres');
      removeScratchDir(dataDir);
    }
    printTable(
      'Downloads of all 1,000,000 orders (web + worker processes, PostgreSQL store, BullMQ)',
      ['format', 'job s', 'fetch s', 'total s', 'rows', 'MB', 'worker VmHWM MB'],
      runs.map((r) => [
        r.format,
        r.jobSeconds,
        r.fetchSeconds,
        r.totalSeconds,
        r.rows,
        round(r.bytes / 1e6, 1),
        r.workerPeakRssMB,
      ]),
    );
    // The verdict: start → Completed, when the file is on disk as psql's is; the fetch (a second pass over the file,
    // by the web process) is reported beside it.
    const csvRuns = runs.filter((r) => r.format === 'csv');
    const csv = median(csvRuns.map((r) => r.jobSeconds));
    const csvTotal = median(csvRuns.map((r) => r.totalSeconds));
    const copy = median(copies);
    const ratio = round(csv / copy, 2);
    print(
      `psql \\copy of the same rows to a file: ${copies.join(', ')} s (median ${copy} s); CSV job ÷ copy: ${ratio}; ` +
        `with the fetch: ${round(csvTotal / copy, 2)}`,
    );
    const verdicts: Verdict[] = [
      ...(csvRuns.length === 0
        ? []
        : [
            {
              target: `CSV download (start → Completed, file on disk) ≤ ${TARGETS.csvRatio} × psql \\copy to a file`,
              measured: `${csv} s vs ${copy} s = ${ratio}× (${csvTotal} s with the fetch)`,
              pass: ratio <= TARGETS.csvRatio,
            },
          ]),
      ...formats.map((format) => {
        const peak = Math.max(...runs.filter((r) => r.format === format).map((r) => r.workerPeakRssMB));
        const total = median(runs.filter((r) => r.format === format).map((r) => r.totalSeconds));
        return {
          target: `${format}: worker peak RSS < ${TARGETS.workerRssMB} MB`,
          measured: `${peak} MB (download ${total} s)`,
          pass: peak < TARGETS.workerRssMB,
        };
      }),
    ];
    return {
      name: 'downloads',
      verdicts,
      notes: [
        `PostgreSQL ${target.host}:${target.port}/${target.database} (orders ${dataset}); Redis ${redisUrl}; ` +
          `worker NODE_OPTIONS="${workerNodeOptions}"`,
      ],
      data: { target, runs, copies },
    };
  },
};
