import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { pgTarget } from './calling-layer.ts';
import { createAssets, ensureOrders } from './lib/calling-setup.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { machineBusySeconds, processCpuSeconds, removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { postgresCpu, postgresCpuSince } from './lib/random-load.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult } from './lib/types.ts';

// Issue 11 "Speed": "recording usage and logs at 2,000 calls per second costs the calling layer under 5 % of its
// throughput". Two real servers (embedded store, LOG_LEVEL=info), one with USAGE_RECORDING=on (a usage record, its
// rollups and a 'call' log record per call, written in batches) and one with it off, each with the calling-layer
// bench's assets over `bench_calling` (lib/calling-setup.ts). The cache-off Q100 asset (random customer ids) is
// driven at a fixed rate (autocannon overallRate, default 2,000 req/s) on each in turn, A B A B; the server's CPU
// per answered request comes from /proc. Verdict: median over rounds of CPU ms/req on ÷ off ≤ 1.05 (at a fixed
// rate, the CPU a request costs is what bounds throughput). Also each side's req/s at full load, for the record.

const TARGET_RATIO = 1.05;
/** The calling layer's per-caller budget would turn the load into 429s: lifted to its maximum. */
const RATE_LIMIT_PER_MINUTE = '1000000';

type Side = 'on' | 'off';

interface Run {
  side: Side;
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number;
  otherCpuSeconds: number;
}

interface Target {
  side: Side;
  server: DataLabServer;
  url: string;
  token: string;
}

/** One autocannon run over random customer ids, at `rate` req/s overall (or as fast as it goes), with its CPU. */
async function drive(target: Target, label: string, seconds: number, connections: number, rate?: number) {
  const base = new URL(target.url.replace('{id}', '1'));
  const path = target.url.slice(base.origin.length);
  const before = {
    server: processCpuSeconds(target.server.pid),
    postgres: postgresCpu(),
    self: process.cpuUsage(),
    machine: machineBusySeconds(),
  };
  const result = await autocannon({
    url: base.origin,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: { authorization: `Bearer ${target.token}` },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: path.replace('{id}', String(1 + Math.floor(Math.random() * 10_000))),
        }),
      },
    ],
  });
  const server = processCpuSeconds(target.server.pid) - before.server;
  const postgres = postgresCpuSince(before.postgres);
  const selfUsage = process.cpuUsage(before.self);
  const machine = machineBusySeconds() - before.machine;
  const responses = result.requests.total;
  const perRequest = (cpu: number) => (responses > 0 ? round((cpu * 1000) / responses, 4) : Number.NaN);
  return {
    side: target.side,
    label,
    requestsPerSecond: round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    serverCpuMsPerRequest: perRequest(server),
    postgresCpuMsPerRequest: perRequest(postgres),
    otherCpuSeconds: round(Math.max(0, machine - server - postgres - (selfUsage.user + selfUsage.system) / 1e6), 2),
  } satisfies Run;
}

async function startSide(side: Side, dataDir: string, target: ReturnType<typeof pgTarget>): Promise<Target> {
  const env = { RATE_LIMIT_PER_MINUTE, USAGE_RECORDING: side };
  const server = await startDataLab({ dataDir, logLevel: 'info', stdout: join(dataDir, 'server.log'), env });
  const assets = await createAssets(server, target, 0);
  const token = await adminToken(server);
  return { side, server, token, url: `${server.baseUrl}/data/v1/${assets.cacheOff}?customer_id={id}` };
}

const row = (run: Run) => [
  run.label,
  run.requestsPerSecond,
  run.p50Ms,
  run.p99Ms,
  run.non2xx + run.errors,
  run.serverCpuMsPerRequest,
  run.postgresCpuMsPerRequest,
  run.otherCpuSeconds,
];
const HEADER = ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'srv CPU ms/req', 'pg CPU ms/req', 'other CPU s'];

export const recording: Bench = {
  name: 'recording',
  async run(options): Promise<BenchResult> {
    const rate = intOption(options, 'rate', 2000, 20_000);
    const seconds = intOption(options, 'duration', 15, 600);
    const warmup = intOption(options, 'warmup', 3, 600);
    const rounds = intOption(options, 'rounds', 3, 10);
    const connections = intOption(options, 'connections', 50, 1000);
    const pg = pgTarget(options);
    const dataset = ensureOrders(pg);
    const dirs = { on: scratchDir('recording-on'), off: scratchDir('recording-off') };
    const sides: Target[] = [];
    const fixed: Run[] = [];
    const full: Run[] = [];
    try {
      sides.push(await startSide('on', dirs.on, pg), await startSide('off', dirs.off, pg));
      for (let r = 1; r <= rounds; r += 1) {
        for (const side of sides) {
          side.token = await adminToken(side.server); // access tokens live 15 minutes
          await drive(side, 'warm-up', warmup, connections, rate);
          await sleep(500);
          const run = await drive(side, `recording ${side.side} #${r} at ${rate}/s`, seconds, connections, rate);
          fixed.push(run);
          print(`${run.label}: ${run.requestsPerSecond} req/s, ${run.serverCpuMsPerRequest} CPU ms/req`);
        }
      }
      for (const side of sides) {
        await sleep(500);
        const run = await drive(side, `recording ${side.side}, full load`, seconds, connections);
        full.push(run);
        print(`${run.label}: ${run.requestsPerSecond} req/s`);
      }
    } finally {
      for (const side of sides) await stop(side.server.child);
      removeScratchDir(dirs.on);
      removeScratchDir(dirs.off);
    }
    printTable(`Q100 cache off at ${rate} req/s, USAGE_RECORDING on vs off, then full load`, HEADER, [
      ...fixed.map(row),
      ...full.map(row),
    ]);
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r += 1) {
      const [on, off] = [fixed[2 * r], fixed[2 * r + 1]];
      if (on && off && off.serverCpuMsPerRequest > 0)
        ratios.push(round(on.serverCpuMsPerRequest / off.serverCpuMsPerRequest, 3));
    }
    const ratio = round(median(ratios), 3);
    const failed = [...fixed, ...full].filter((run) => run.non2xx + run.errors > 0);
    const fullOf = (side: Side) => full.find((run) => run.side === side)?.requestsPerSecond ?? 0;
    return {
      name: 'recording',
      verdicts: [
        {
          target: `Recording usage and call logs at ${rate} calls/s: server CPU per request ≤ ${TARGET_RATIO} × without`,
          measured:
            `${ratio}× (median of ${ratios.join(', ')}); full load ${fullOf('on')} req/s on vs ${fullOf('off')} off` +
            (failed.length > 0 ? `; errors in ${failed.map((run) => run.label).join(', ')}` : ''),
          pass: ratio <= TARGET_RATIO && failed.length === 0,
        },
      ],
      notes: [
        `PostgreSQL ${pg.host}:${pg.port}/${pg.database} (orders ${dataset}); Data Lab: embedded store, LOG_LEVEL=info, ` +
          `RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE}; asset Q100 cache off; ${connections} connections`,
      ],
      data: { rate, seconds, rounds, fixed, full, ratios },
    };
  },
};
