import { freePort } from '../apps/server/test/support/ports.ts';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { exportsPart, type ExportsData } from './calling-exports.ts';
import { createAssets, ensureOrders, type CallingAssets, type PgTarget } from './lib/calling-setup.ts';
import { ROOT, adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { directusMissing, startDirectus, type DirectusPeer } from './lib/directus.ts';
import { launch, removeScratchDir, scratchDir, stop, waitFor200 } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { envOption, intOption, wordsOption } from './lib/options.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult, Verdict } from './lib/types.ts';

// Target: Q100 (100 rows of one customer, random ids 1..10000, 50 connections) through the calling
// layer — authenticated, authorized, values validated, usage recorded — side by side in one run with the bare
// Fastify + pg route, the same asset with its cache on, and Directus 12.4.0 when installed; then the exports of
// all 1,000,000 rows (calling-exports.ts). Each side: warm-up, then the measured run; rounds alternate the sides.

const CACHE_TTL_SECONDS = 3600;
/** Room for all 10,000 answers (~16 kB each): the cache is sized to the working set, as an operator would. */
export const CACHE_MAX_BYTES = 256 * 1024 * 1024;
/** The peers' Directus Q100 figures on this VM (bench/peers/README.md), used when Directus cannot run here. */
const PEERS_DIRECTUS = { requestsPerSecond: 300, serverCpuMsPerRequest: 3.75, note: '285 / 317 req/s, 3.5–4.0 CPU ms' };

type Side = 'bare' | 'cache-off' | 'before' | 'cache-on' | 'directus';

interface Sides {
  url: Record<Side, string | undefined>;
  pid: Record<Side, number | undefined>;
  headers: (side: Side) => Promise<Record<string, string>>;
}

async function startBare(target: PgTarget) {
  const port = await freePort();
  const child = launch(process.execPath, ['bench/orders-baseline-server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PGHOST: target.host,
      PGPORT: String(target.port),
      PGUSER: target.user,
      PGDATABASE: target.database,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor200(`${baseUrl}/health/ready`, child, 10_000);
  return { child, pid: child.pid!, baseUrl };
}

/** Calls every id once (20 at a time) so the cache-on side is measured warm: its TTL outlives the run. */
export async function primeCache(url: string, headers: Record<string, string>, maxId: number): Promise<number> {
  let next = 1;
  let failed = 0;
  const worker = async () => {
    for (let id = next++; id <= maxId; id = next++) {
      const response = await fetch(url.replace('{id}', String(id)), { headers });
      await response.arrayBuffer();
      if (response.status !== 200) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return failed;
}

export function pgTarget(options: BenchOptions, database = options['pg-database'] ?? 'bench_calling'): PgTarget {
  return {
    host: options['pg-host'] ?? '127.0.0.1',
    port: intOption(options, 'pg-port', 5432, 65_535),
    user: options['pg-user'] ?? 'postgres',
    database,
  };
}

const row = (run: RandomLoadRun, ratio: string) => [
  run.label,
  run.requestsPerSecond,
  run.p50Ms,
  run.p99Ms,
  run.non2xx + run.errors + run.timeouts,
  run.serverCpuMsPerRequest,
  run.postgresCpuMsPerRequest,
  run.loadGeneratorCpuSeconds,
  run.otherCpuSeconds,
  ratio,
];

interface Q100Data {
  runs: RandomLoadRun[];
  directus: string;
  primeFailures: number;
}

/** The same server from another checkout (`--before=<dir>`), for a change measured before/after in one run. */
interface BeforeServer {
  server: DataLabServer;
  assets: CallingAssets;
}

async function q100(
  options: BenchOptions,
  server: DataLabServer,
  assets: CallingAssets,
  target: PgTarget,
  before?: BeforeServer,
) {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 15, 600);
  const warmup = intOption(options, 'warmup', 5, 600);
  const rounds = intOption(options, 'rounds', 1, 10);
  const bare = await startBare(target);
  const directusDir = options['directus'] ?? '/tmp/peers/directus';
  let directus: DirectusPeer | undefined;
  let directusNote = directusDir === 'off' ? 'not run (--directus=off)' : directusMissing(directusDir);
  if (directusNote === undefined) {
    try {
      directus = await startDirectus(directusDir, pgTarget(options, options['directus-database'] ?? 'bench_directus'));
      directusNote = `Directus 12.4.0 from ${directusDir}, run side by side`;
    } catch (error) {
      directusNote = `Directus did not start: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  const dataUrl = (uid: string) => `${server.baseUrl}/data/v1/${uid}?customer_id={id}`;
  const sides: Sides = {
    url: {
      bare: `${bare.baseUrl}/orders?customer_id={id}`,
      'cache-off': dataUrl(assets.cacheOff),
      before: before && `${before.server.baseUrl}/data/v1/${before.assets.cacheOff}?customer_id={id}`,
      'cache-on': dataUrl(assets.cacheOn),
      directus: directus && `${directus.baseUrl}/items/orders?filter%5Bcustomer_id%5D%5B_eq%5D={id}&limit=100`,
    },
    pid: {
      bare: bare.pid,
      'cache-off': server.pid,
      before: before?.server.pid,
      'cache-on': server.pid,
      directus: directus?.pid,
    },
    headers: async (side): Promise<Record<string, string>> => {
      if (side === 'bare') return {};
      if (side === 'directus') return { authorization: `Bearer ${directus?.token}` };
      if (side === 'before' && before) return { authorization: `Bearer ${await adminToken(before.server)}` };
      return { authorization: `Bearer ${await adminToken(server)}` };
    },
  };
  const runs: RandomLoadRun[] = [];
  let primeFailures = 0;
  try {
    for (let round_ = 1; round_ <= rounds; round_ += 1) {
      for (const side of ['bare', 'cache-off', 'before', 'cache-on', 'directus'] as const) {
        const url = sides.url[side];
        const pid = sides.pid[side];
        if (!url || !pid) continue;
        const headers = await sides.headers(side);
        if (side === 'cache-on' && round_ === 1) primeFailures = await primeCache(url, headers, 10_000);
        await randomLoad({ label: 'warm-up', url, serverPid: pid, headers, connections, seconds: warmup });
        // autocannon drops its sockets at the end of a run: calls still in flight are cancelled on the server (a
        // cancel request to PostgreSQL), holding their pool slots a moment. Let them go before measuring.
        await sleep(1000);
        const run = await randomLoad({
          label: `${side} #${round_}`,
          url,
          serverPid: pid,
          headers,
          connections,
          seconds,
        });
        runs.push(run);
        print(
          `${run.label}: ${run.requestsPerSecond} req/s, p99 ${run.p99Ms} ms, ${run.serverCpuMsPerRequest} CPU ms/req`,
        );
      }
    }
  } finally {
    await stop(bare.child);
    if (directus) await stop(directus.child);
  }
  return { runs, directus: directusNote ?? '', primeFailures } satisfies Q100Data;
}

/** Each round's ratio a ÷ b (the two runs of the same round, minutes apart), then their median. */
function roundRatios(data: Q100Data, a: Side, b: Side | number) {
  const runsOf = (side: Side) => data.runs.filter((run) => run.label.startsWith(`${side} #`));
  const [as, bs] = [runsOf(a), typeof b === 'number' ? [] : runsOf(b)];
  const pairs = as.map((run, index) => [
    run.requestsPerSecond,
    typeof b === 'number' ? b : bs[index]?.requestsPerSecond,
  ]);
  const ratios = pairs.filter(([, y]) => y).map(([x, y]) => round(x! / y!, 2));
  if (ratios.length === 0) return undefined;
  return { ratio: round(median(ratios), 2), detail: pairs.map(([x, y]) => `${x} vs ${y}`).join('; ') };
}

function q100Verdicts(data: Q100Data): Verdict[] {
  const measuredDirectus = data.runs.some((run) => run.label.startsWith('directus #'));
  const verdict = (target: string, found: ReturnType<typeof roundRatios>, floor: number, source = ''): Verdict => ({
    target,
    measured: found ? `${found.ratio}× (median of rounds; req/s ${found.detail}${source})` : 'not measured',
    pass: found ? found.ratio >= floor : undefined,
  });
  const directus = measuredDirectus
    ? verdict('Q100 cache off ≥ 5 × Directus', roundRatios(data, 'cache-off', 'directus'), 5, ', side by side')
    : verdict(
        'Q100 cache off ≥ 5 × Directus',
        roundRatios(data, 'cache-off', PEERS_DIRECTUS.requestsPerSecond),
        5,
        `, against the peers' recorded Directus ${PEERS_DIRECTUS.note}`,
      );
  const before = roundRatios(data, 'cache-off', 'before');
  return [
    ...(before
      ? [
          {
            target: 'Q100 cache off, this checkout ÷ --before',
            measured: `${before.ratio}× (${before.detail})`,
            pass: undefined,
          },
        ]
      : []),
    verdict('Q100 cache off ≥ 0.8 × bare Fastify + pg', roundRatios(data, 'cache-off', 'bare'), 0.8),
    directus,
    verdict('Q100 cache on ≥ 5 × cache off', roundRatios(data, 'cache-on', 'cache-off'), 5),
  ];
}

function printQ100(data: Q100Data): void {
  // Each run against the bare route's run of the same round.
  const bareOf = (run: RandomLoadRun) =>
    data.runs.find((other) => other.label === `bare #${run.label.split('#')[1]}`)?.requestsPerSecond;
  const rows = data.runs.map((run) => {
    const bare = bareOf(run);
    return row(run, bare ? `${round(run.requestsPerSecond / bare, 2)}×` : '–');
  });
  const header = [
    'run',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'srv CPU ms/req',
    'pg CPU ms/req',
    'autocannon CPU s',
    'other CPU s',
    '÷ bare',
  ];
  printTable('Q100, random ids 1..10000', header, rows);
  print(`Directus: ${data.directus}`);
}

export const callingLayer: Bench = {
  name: 'calling-layer',
  async run(options): Promise<BenchResult> {
    const target = pgTarget(options);
    const dataset = ensureOrders(target);
    const dataDir = scratchDir('calling');
    // The per-caller limit (600 calls a minute by default) would turn a load test into 429s: lift it here.
    // `--server-env="LOG_LEVEL=warn USAGE_RECORDING=off"`: settings of this checkout's server (what a part costs).
    const env = {
      MAX_EXPORT_ROWS: '1000000',
      CACHE_MAX_BYTES: String(CACHE_MAX_BYTES),
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...envOption(options, 'server-env'),
    };
    // `--server-node-args="--max-semi-space-size=16 --trace-gc"`: flags for this checkout's server (memory trials).
    const nodeArgs = wordsOption(options, 'server-node-args');
    const start = () => startDataLab({ dataDir, logLevel: 'info', stdout: join(dataDir, 'server.log'), env, nodeArgs });
    const server = await start();
    const assets = await createAssets(server, target, CACHE_TTL_SECONDS);
    const part = options['part'] ?? 'all';
    let q100Data: Q100Data | undefined;
    let exportsData: ExportsData | undefined;
    let before: BeforeServer | undefined;
    const beforeDir = scratchDir('calling-before');
    try {
      if (options['before'] && part !== 'exports') {
        const beforeServer = await startDataLab({
          dataDir: beforeDir,
          logLevel: 'info',
          stdout: join(beforeDir, 'server.log'),
          env,
          root: options['before'],
        });
        before = { server: beforeServer, assets: await createAssets(beforeServer, target, CACHE_TTL_SECONDS) };
      }
      if (part !== 'exports') q100Data = await q100(options, server, assets, target, before);
    } finally {
      await stop(server.child);
      if (before) await stop(before.server.child);
      removeScratchDir(beforeDir);
    }
    if (q100Data) printQ100(q100Data);
    if (part !== 'q100') exportsData = await exportsPart(options, start, assets, target);
    const notes = [
      `PostgreSQL ${target.host}:${target.port}/${target.database} (orders ${dataset}); Data Lab: embedded store, ` +
        `LOG_LEVEL=info, MAX_EXPORT_ROWS=1000000, CACHE_MAX_BYTES=${CACHE_MAX_BYTES}, cache TTL ${CACHE_TTL_SECONDS} s`,
      ...(q100Data
        ? [`Directus: ${q100Data.directus}`, `cache primed with ids 1..10000 (${q100Data.primeFailures} failures)`]
        : []),
      ...(exportsData?.notes ?? []),
    ];
    return {
      name: 'calling-layer',
      verdicts: [...(q100Data ? q100Verdicts(q100Data) : []), ...(exportsData?.verdicts ?? [])],
      notes,
      data: { target, q100: q100Data, exports: exportsData },
    };
  },
};
