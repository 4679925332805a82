import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { intOption, wordsOption } from './lib/options.ts';
import { processCpuSeconds, scratchDir, stop } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult, Verdict } from './lib/types.ts';
import { breakerPart, breakerVerdict, printBreaker, type BreakerData } from './web-api-breaker.ts';
import { countExportLines, exportPart, exportVerdict, printExport, type ExportData } from './web-api-export.ts';
import {
  ROWS_PAGES,
  createWebApiAssets,
  startBaseline,
  startUpstream,
  upstreamCounts,
  type Upstream,
  type WebApiAssets,
} from './web-api-setup.ts';

// Target: against a local upstream answering 100 rows of JSON (web-api-upstream.ts, its own process), the
// calling layer over a Web API asset — authenticated, authorized, rate-counted, value validated, upstream called
// through the engine's connector (guard, breaker, gate), rows parsed and shaped, usage recorded — with its cache off,
// side by side in each round with a bare Fastify route proxying the same upstream with undici
// (web-api-baseline-server.ts), 50 connections, a random page 1..1000 per request; then the circuit breaker on a
// failing upstream (web-api-breaker.ts) and the CSV export of 100,000 paged rows (web-api-export.ts).

const TARGET_RATIO = 0.7;
const PARTS = ['all', 'throughput', 'breaker', 'export'] as const;
type Side = 'bare' | 'calling';

interface ThroughputRun extends RandomLoadRun {
  upstreamCpuMsPerRequest: number;
  /** Requests the upstream answered per reply the load generator got: 1 when nothing is retried or cached. */
  upstreamRequestsPerReply: number;
}

interface ThroughputData {
  runs: ThroughputRun[];
}

async function measured(options: Parameters<typeof randomLoad>[0], upstream: Upstream): Promise<ThroughputRun> {
  const before = { cpu: processCpuSeconds(upstream.pid), requests: (await upstreamCounts(upstream)).rows };
  const run = await randomLoad(options);
  const upstreamCpu = processCpuSeconds(upstream.pid) - before.cpu;
  const upstreamRequests = (await upstreamCounts(upstream)).rows - before.requests;
  const perReply = (value: number) => (run.responses > 0 ? value / run.responses : Number.NaN);
  return {
    ...run,
    upstreamCpuMsPerRequest: round(perReply(upstreamCpu * 1000), 3),
    upstreamRequestsPerReply: round(perReply(upstreamRequests), 3),
    // randomLoad's "other" would count the upstream (and drop every postgres on the box): here it is the rest.
    otherCpuSeconds: round(
      Math.max(0, run.machineBusySeconds - run.serverCpuSeconds - run.loadGeneratorCpuSeconds - upstreamCpu),
      2,
    ),
  };
}

/** One call each way before any load: both answer the same 100 rows, or the bench stops here. */
async function checkSides(bareUrl: string, callingUrl: string, token: string): Promise<void> {
  const bare = await fetch(bareUrl.replace('{id}', '7'));
  const bareRows = (await bare.json()) as unknown[];
  if (bare.status !== 200 || bareRows.length !== 100) throw new Error(`bare route: ${bare.status}, not 100 rows`);
  const calling = await fetch(callingUrl.replace('{id}', '7'), { headers: { authorization: `Bearer ${token}` } });
  const text = await calling.text();
  const rows = calling.status === 200 ? (JSON.parse(text) as { rows: { id: number }[] }).rows : [];
  if (rows.length !== 100 || rows[0]?.id !== 601)
    throw new Error(`calling layer: ${calling.status} ${text.slice(0, 300)}`);
}

async function throughput(
  options: BenchOptions,
  server: DataLabServer,
  upstream: Upstream,
  assets: WebApiAssets,
  upstreamConnections: number,
): Promise<ThroughputData> {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 10, 600);
  const warmup = intOption(options, 'warmup', 3, 600);
  const rounds = intOption(options, 'rounds', 3, 10);
  const bare = await startBaseline(upstream, upstreamConnections);
  const url: Record<Side, string> = {
    bare: `${bare.baseUrl}/rows?page={id}`,
    calling: `${server.baseUrl}/data/v1/${assets.rows}?page={id}`,
  };
  const pid: Record<Side, number> = { bare: bare.pid, calling: server.pid };
  const runs: ThroughputRun[] = [];
  try {
    await checkSides(url.bare, url.calling, await adminToken(server));
    for (let index = 1; index <= rounds; index += 1) {
      for (const side of ['bare', 'calling'] as const) {
        // Access tokens live 15 minutes: a fresh one for each run.
        const headers: Record<string, string> =
          side === 'bare' ? {} : { authorization: `Bearer ${await adminToken(server)}` };
        const common = { url: url[side], serverPid: pid[side], headers, connections, maxId: ROWS_PAGES };
        await randomLoad({ ...common, label: 'warm-up', seconds: warmup });
        // Calls cut off at the end of the warm-up still finish on the server: let them go before measuring.
        await sleep(1000);
        const run = await measured({ ...common, label: `${side} #${index}`, seconds }, upstream);
        runs.push(run);
        print(
          `${run.label}: ${run.requestsPerSecond} req/s, p99 ${run.p99Ms} ms, ${run.serverCpuMsPerRequest} CPU ms/req`,
        );
      }
    }
  } finally {
    await stop(bare.child);
  }
  return { runs };
}

const runsOf = (data: ThroughputData, side: Side) => data.runs.filter((run) => run.label.startsWith(`${side} #`));

/** Each round's calling ÷ bare (the two runs of one round, seconds apart), then their median. */
function ratios(data: ThroughputData) {
  const bare = runsOf(data, 'bare');
  const pairs = runsOf(data, 'calling').flatMap((run, index) => {
    const other = bare[index];
    return other ? [{ calling: run, bare: other }] : [];
  });
  if (pairs.length === 0) return undefined;
  return {
    ratio: round(median(pairs.map((p) => p.calling.requestsPerSecond / p.bare.requestsPerSecond)), 2),
    cpuRatio: round(median(pairs.map((p) => p.bare.serverCpuMsPerRequest / p.calling.serverCpuMsPerRequest)), 2),
    detail: pairs.map((p) => `${p.calling.requestsPerSecond} vs ${p.bare.requestsPerSecond}`).join('; '),
    errors: pairs.reduce((sum, p) => sum + p.calling.non2xx + p.calling.errors + p.calling.timeouts, 0),
  };
}

function throughputVerdict(data: ThroughputData): Verdict {
  const found = ratios(data);
  return {
    target: `Web API asset, cache off, 50 connections ≥ ${TARGET_RATIO} × bare Fastify + undici proxy`,
    measured: found
      ? `${found.ratio}× (median of rounds; req/s ${found.detail}); by server CPU per request ${found.cpuRatio}×; ` +
        `${found.errors} errors`
      : 'not measured',
    pass: found ? found.ratio >= TARGET_RATIO && found.errors === 0 : undefined,
  };
}

function printThroughput(data: ThroughputData): void {
  const bareOf = (run: RandomLoadRun) =>
    data.runs.find((other) => other.label === `bare #${run.label.split('#')[1]}`)?.requestsPerSecond;
  const rows = data.runs.map((run) => {
    const bare = bareOf(run);
    return [
      run.label,
      run.requestsPerSecond,
      run.p50Ms,
      run.p99Ms,
      run.non2xx + run.errors + run.timeouts,
      run.serverCpuMsPerRequest,
      run.upstreamCpuMsPerRequest,
      run.upstreamRequestsPerReply,
      run.loadGeneratorCpuSeconds,
      run.otherCpuSeconds,
      bare ? `${round(run.requestsPerSecond / bare, 2)}×` : '–',
    ];
  });
  const header = [
    'run',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'srv CPU ms/req',
    'upstream CPU ms/req',
    'upstream req/reply',
    'autocannon CPU s',
    'other CPU s',
    '÷ bare',
  ];
  printTable('100 rows of JSON from the upstream, a random page 1..1000 per request', header, rows);
}

export const webApi: Bench = {
  name: 'web-api',
  async run(options): Promise<BenchResult> {
    const part = options['part'] ?? 'all';
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--part=${part}: expected ${PARTS.join(', ')}`);
    const upstreamConnections = intOption(options, 'upstream-connections', 10, 100);
    const exportRows = intOption(options, 'export-rows', 100_000, 1_000_000);
    const logLevel = options['log-level'] ?? 'info';
    const upstream = await startUpstream(exportRows);
    const dataDir = scratchDir('web-api');
    // The calling layer counts calls per caller (RATE_LIMIT_PER_MINUTE, 600 by default): the load is one caller.
    const env = { RATE_LIMIT_PER_MINUTE: '1000000', MAX_EXPORT_ROWS: String(exportRows) };
    // `--server-node-args="--max-semi-space-size=8"`: other V8 flags for the server (memory trials).
    const nodeArgs = wordsOption(options, 'server-node-args');
    const start = () => startDataLab({ dataDir, logLevel, stdout: join(dataDir, 'server.log'), env, nodeArgs });
    let throughputData: ThroughputData | undefined;
    let breakerData: BreakerData | undefined;
    let exportData: ExportData | undefined;
    try {
      const server = await start();
      let assets: WebApiAssets;
      let checkedLines: number | undefined;
      try {
        assets = await createWebApiAssets(server, upstream, { upstreamConnections, exportRows });
        if (part === 'all' || part === 'throughput')
          throughputData = await throughput(options, server, upstream, assets, upstreamConnections);
        if (part === 'all' || part === 'breaker')
          breakerData = await breakerPart(server, upstream, assets.failing, {
            seconds: intOption(options, 'duration', 10, 600),
            warmup: intOption(options, 'warmup', 3, 600),
            connections: intOption(options, 'connections', 50, 1000),
          });
        if (part === 'all' || part === 'export') checkedLines = await countExportLines(server, assets.export);
      } finally {
        await stop(server.child);
      }
      if (throughputData) printThroughput(throughputData);
      if (breakerData) printBreaker(breakerData);
      if (part === 'all' || part === 'export') {
        const runs = intOption(options, 'export-runs', 3, 10);
        exportData = { ...(await exportPart(start, upstream, assets.export, { exportRows, runs })), checkedLines };
        printExport(exportData);
      }
    } finally {
      await stop(upstream.child);
    }
    return {
      name: 'web-api',
      verdicts: [
        ...(throughputData ? [throughputVerdict(throughputData)] : []),
        ...(breakerData ? [breakerVerdict(breakerData)] : []),
        ...(exportData ? [exportVerdict(exportData)] : []),
      ],
      notes: [
        `upstream: node:http, prebuilt replies, ${ROWS_PAGES} pages of 100 orders (load.sql's rows as JSON), ` +
          `API key in a header; Data Lab: embedded store, LOG_LEVEL=${logLevel}, RATE_LIMIT_PER_MINUTE=1000000, ` +
          `MAX_EXPORT_ROWS=${exportRows}; connection maxConnections ${upstreamConnections} = the bare route's ` +
          `undici Pool, other settings default (retries 2, breaker 5 failures / 30 s)`,
        'circuit breaker: latency of one caller calling back to back (the target is the answer time, not a queue)',
      ],
      data: { options, throughput: throughputData, breaker: breakerData, export: exportData },
    };
  },
};
