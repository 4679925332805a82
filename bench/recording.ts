import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../apps/server/src/config.ts';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { pgTarget } from './calling-layer.ts';
import { ensureOrders } from './lib/calling-setup.ts';
import { adminToken } from './lib/datalab.ts';
import {
  drive,
  driveInTurn,
  driveTogether,
  RATE_LIMIT_PER_MINUTE,
  startSide,
  type Run,
  type Side,
  type Store,
  type Target,
  type Traffic,
} from './lib/recording-sides.ts';
import { envOption, intOption, wordsOption } from './lib/options.ts';
import { removeScratchDir, stop } from './lib/processes.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult, Verdict } from './lib/types.ts';

// Target: "recording usage and logs at 2,000 calls per second costs the calling layer under 5 % of its
// throughput". Per metadata store (`--store=sqlite,postgres`: SQLite, the embedded default, and a fresh PostgreSQL
// database per server, the scale-out store), two real servers (LOG_LEVEL=info), one with USAGE_RECORDING=on (a
// usage record and a 'call' log record per call, written in batches, and the rollups) and one with it off. Each
// has a collection of `--assets` (20) Q100 assets with the cache off over `bench_calling` (lib/calling-setup.ts)
// and `--callers` (50) users, each a Reader with a personal access token (lib/bench-callers.ts).
// Traffic (`--traffic=varied,single`):
// - varied (the verdict): every request a random asset, a random caller's token and a random customer id, so a
//   batch of records spreads over many rollup keys (asset × user), as real traffic does;
// - single (reported): the demo administrator's token on one asset, as the first version of this bench: every
//   batch collapses to one rollup key per table.
// Each is driven at a fixed rate (autocannon overallRate, default 2,000 req/s) on each side in turn, A B A B; the
// server's CPU per answered request comes from /proc. Verdict per store: the median over rounds of CPU ms/req on ÷
// off ≤ 1.05 with varied traffic (at a fixed rate, the CPU a request costs is what bounds throughput). Then each
// side at full load with varied traffic, for the record. After the servers stop (gracefully), the recording
// side's store is checked: its rollups count every stored record (nothing lost at shutdown).

const TARGET_RATIO = 1.05;

/** After a graceful stop: the recording side's records, and the calls its rollups count (they must be equal). */
async function storedCounts(database: Config['database']) {
  const db = createDatabase(database);
  try {
    const records = await db
      .selectFrom('usage_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const rollups = await db
      .selectFrom('usage_total_hourly')
      .select((eb) => eb.fn.sum('calls').as('n'))
      .executeTakeFirstOrThrow();
    const fineKeys = await db
      .selectFrom('usage_hourly')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const logs = await db
      .selectFrom('application_logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('category', '=', 'call')
      .executeTakeFirstOrThrow();
    return {
      records: Number(records.n),
      rollupCalls: Number(rollups.n ?? 0),
      fineKeys: Number(fineKeys.n),
      callLogs: Number(logs.n),
    };
  } finally {
    await db.destroy();
  }
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

interface StoreResult {
  store: Store;
  fixed: Run[];
  full: Run[];
  ratios: Record<Traffic, number[]>;
  stored?: Awaited<ReturnType<typeof storedCounts>>;
}

async function runStore(
  store: Store,
  options: Record<string, string>,
  pg: ReturnType<typeof pgTarget>,
  traffics: Traffic[],
): Promise<StoreResult> {
  const rate = intOption(options, 'rate', 2000, 20_000);
  const seconds = intOption(options, 'duration', 15, 600);
  const warmup = intOption(options, 'warmup', 3, 600);
  const rounds = intOption(options, 'rounds', 3, 10);
  const connections = intOption(options, 'connections', 50, 1000);
  const counts = { assets: intOption(options, 'assets', 20, 200), callers: intOption(options, 'callers', 50, 1000) };
  const together = options['together'] !== undefined;
  const sides: Target[] = [];
  const result: StoreResult = { store, fixed: [], full: [], ratios: { varied: [], single: [] } };
  try {
    // `--server-node-args="--cpu-prof --cpu-prof-dir=…"` and `--server-env="K=V …"`: both sides' servers (profiles,
    // settings trials).
    const extra = { nodeArgs: wordsOption(options, 'server-node-args'), env: envOption(options, 'server-env') };
    sides.push(await startSide('on', store, pg, counts, extra), await startSide('off', store, pg, counts, extra));
    for (const traffic of traffics) {
      for (let r = 1; r <= rounds; r += 1) {
        const load = { seconds, warmup, connections, rate };
        const meta = { store, round: r };
        const pair = await (together ? driveTogether : driveInTurn)(sides, traffic, meta, load);
        result.fixed.push(...pair);
        const [on, off] = pair;
        if (on && off && off.serverCpuMsPerRequest > 0)
          result.ratios[traffic].push(round(on.serverCpuMsPerRequest / off.serverCpuMsPerRequest, 3));
      }
    }
    for (const side of sides) {
      await sleep(500);
      side.adminToken = await adminToken(side.server);
      const label = `${store} varied ${side.side}, full load`;
      const run = await drive(side, 'varied', { store, label }, seconds, connections);
      result.full.push(run);
      print(`${run.label}: ${run.requestsPerSecond} req/s`);
    }
  } finally {
    for (const side of sides) await stop(side.server.child);
    const on = sides.find((side) => side.side === 'on');
    if (on) result.stored = await storedCounts(on.database).catch(() => undefined);
    for (const side of sides) {
      await side.drop?.();
      removeScratchDir(side.dataDir);
    }
  }
  return result;
}

function verdictsOf(result: StoreResult, traffics: Traffic[], rate: number, together: boolean): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const traffic of traffics) {
    const ratios = result.ratios[traffic];
    const ratio = round(median(ratios), 3);
    const runs = result.fixed.filter((run) => run.traffic === traffic);
    const failed = [...runs, ...(traffic === 'varied' ? result.full : [])].filter((run) => run.non2xx + run.errors > 0);
    const cpu = (side: Side) =>
      round(median(runs.filter((run) => run.side === side).map((r) => r.serverCpuMsPerRequest)), 3);
    const fullOf = (side: Side) => result.full.find((run) => run.side === side)?.requestsPerSecond ?? 0;
    verdicts.push({
      target:
        `Recording usage and call logs at ${rate} calls/s${together ? ' (both sides at once, each at half)' : ''}, ` +
        `${result.store} store, ${traffic} traffic` +
        `${traffic === 'varied' ? '' : ' (reported)'}: server CPU per request ≤ ${TARGET_RATIO} × without`,
      measured:
        `${ratio}× (median of ${ratios.join(', ')}; CPU ms/req ${cpu('on')} on vs ${cpu('off')} off)` +
        (traffic === 'varied' ? `; full load ${fullOf('on')} req/s on vs ${fullOf('off')} off` : '') +
        (failed.length > 0 ? `; errors in ${failed.map((run) => run.label).join(', ')}` : ''),
      pass: traffic === 'varied' ? ratio <= TARGET_RATIO && failed.length === 0 : undefined,
    });
  }
  const stored = result.stored;
  verdicts.push({
    target: `After a graceful stop (${result.store}): the rollups count every stored usage record`,
    measured: stored
      ? `${stored.records} records, ${stored.rollupCalls} calls in usage_total_hourly, ${stored.callLogs} call log ` +
        `records, ${stored.fineKeys} fine hourly keys`
      : 'not measured',
    pass: stored
      ? stored.records > 0 && stored.records === stored.rollupCalls && stored.records === stored.callLogs
      : undefined,
  });
  return verdicts;
}

export const recording: Bench = {
  name: 'recording',
  async run(options): Promise<BenchResult> {
    const rate = intOption(options, 'rate', 2000, 20_000);
    const stores = (options['store'] ?? 'sqlite,postgres').split(',') as Store[];
    const traffics = (options['traffic'] ?? 'varied,single').split(',') as Traffic[];
    const pg = pgTarget(options);
    const dataset = ensureOrders(pg);
    const load = [loadavg()[0]!];
    const results: StoreResult[] = [];
    for (const store of stores) results.push(await runStore(store, options, pg, traffics));
    load.push(loadavg()[0]!);
    for (const result of results) {
      printTable(
        `${result.store} store: Q100 cache off at ${rate} req/s, USAGE_RECORDING on vs off, then full load (varied)`,
        HEADER,
        [...result.fixed.map(row), ...result.full.map(row)],
      );
    }
    return {
      name: 'recording',
      verdicts: results.flatMap((result) => verdictsOf(result, traffics, rate, options['together'] !== undefined)),
      notes: [
        `PostgreSQL ${pg.host}:${pg.port}/${pg.database} (orders ${dataset}); Data Lab: LOG_LEVEL=info, ` +
          `RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE}; ${intOption(options, 'assets', 20, 200)} Q100 assets ` +
          `(cache off), ${intOption(options, 'callers', 50, 1000)} callers with personal access tokens; ` +
          `${intOption(options, 'connections', 50, 1000)} connections; load average ${load.map((x) => x.toFixed(2)).join(' → ')}`,
      ],
      data: { rate, results },
    };
  },
};
