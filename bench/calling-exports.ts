import type { CallingAssets, PgTarget } from './lib/calling-setup.ts';
import { EXPORT_SQL, NEUTRALISED_EXPORT_SQL } from './lib/calling-setup.ts';
import { adminToken, type DataLabServer } from './lib/datalab.ts';
import { psqlCopySeconds, psqlVersion, timeExport, type ExportRun } from './lib/exports.ts';
import { intOption } from './lib/options.ts';
import { stop } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { BenchOptions, Verdict } from './lib/types.ts';

// All 1,000,000 rows through the calling layer: CSV with no transformation (the COPY path) against `psql \copy`
// of the same query, CSV with a mask rule (rows through the writer), NDJSON and XLSX; each on a freshly started
// server so its VmHWM is that export's peak. Then CSV exports back to back while 2 connections call Q100.

const TARGETS = { plainRatio: 1.5, maskedRatio: 5, firstByteMs: 50, rssMB: 200, lightP99Ms: 100 };

interface LightLoad {
  /** The same load on the same server just before, with no export running: the reference. */
  quiet: RandomLoadRun;
  load: RandomLoadRun;
  exports: ExportRun[];
}

export interface ExportsData {
  rounds: Round[];
  light?: LightLoad;
  verdicts: Verdict[];
  notes: string[];
}

type Start = () => Promise<DataLabServer>;
type Format = 'csv' | 'ndjson' | 'xlsx';

async function onFreshServer<T>(start: Start, work: (server: DataLabServer, token: string) => Promise<T>): Promise<T> {
  const server = await start();
  try {
    return await work(server, await adminToken(server));
  } finally {
    await stop(server.child);
  }
}

const exportUrl = (server: DataLabServer, uid: string, format: Format) =>
  `${server.baseUrl}/data/v1/${uid}?format=${format}`;

/** CSV exports one after another for as long as 2 connections load Q100 (cache off) on the same server. */
async function underLightLoad(start: Start, assets: CallingAssets, seconds: number): Promise<LightLoad> {
  return onFreshServer(start, async (server, token) => {
    const q100 = {
      url: `${server.baseUrl}/data/v1/${assets.cacheOff}?customer_id={id}`,
      serverPid: server.pid,
      headers: { authorization: `Bearer ${token}` },
      connections: 2,
      seconds,
    };
    const quiet = await randomLoad({ ...q100, label: 'Q100 c=2, no export' });
    const exports: ExportRun[] = [];
    let loading = true;
    const url = exportUrl(server, assets.exportPlain, 'csv');
    const exporting = (async () => {
      while (loading) exports.push(await timeExport('csv under load', url, token, server.pid));
    })();
    const load = await randomLoad({ ...q100, label: 'Q100 c=2 during CSV exports' });
    loading = false;
    await exporting;
    return { quiet, load, exports };
  });
}

interface Round {
  psql: number;
  psqlNeutralised: number;
  runs: ExportRun[];
}

/** Median over rounds of (export ÷ the psql floor measured just before it, in the same round). */
function medianRatio(rounds: Round[], label: string): { ratio: number; detail: string } | undefined {
  const pairs = rounds.flatMap((r) => r.runs.filter((run) => run.label === label).map((run) => [run.seconds, r.psql]));
  if (pairs.length === 0) return undefined;
  const ratio = round(median(pairs.map(([ours, psql]) => ours! / psql!)), 2);
  return { ratio, detail: pairs.map(([ours, psql]) => `${ours} s vs ${psql} s`).join('; ') };
}

function verdicts(data: Omit<ExportsData, 'verdicts' | 'notes'>): Verdict[] {
  const runs = data.rounds.flatMap((r) => r.runs);
  const ratioVerdict = (target: string, label: string, limit: number): Verdict => {
    const found = medianRatio(data.rounds, label);
    return {
      target,
      measured: found ? `${found.ratio}× (median; ${found.detail})` : 'not measured',
      pass: found ? found.ratio <= limit : undefined,
    };
  };
  const firstBytes = runs.filter((run) => run.label.startsWith('csv')).map((run) => run.firstByteMs);
  const worst = new Map<string, ExportRun>();
  for (const run of runs) if ((worst.get(run.label)?.vmHwmMB ?? 0) < run.vmHwmMB) worst.set(run.label, run);
  const rss = [...worst.values()];
  const light = data.light;
  const lightErrors = light ? light.load.non2xx + light.load.errors + light.load.timeouts : 0;
  return [
    ratioVerdict('CSV export, 1M rows, no transformation ≤ 1.5 × psql \\copy', 'csv', TARGETS.plainRatio),
    ratioVerdict('CSV export, 1M rows, mask rule ≤ 5 × psql \\copy', 'csv masked', TARGETS.maskedRatio),
    {
      target: 'CSV export first byte ≤ 50 ms',
      measured: `worst ${Math.max(...firstBytes)} ms, median ${round(median(firstBytes), 1)} ms (${firstBytes.length} CSVs)`,
      pass: firstBytes.length > 0 ? Math.max(...firstBytes) <= TARGETS.firstByteMs : undefined,
    },
    {
      target: 'server peak RSS (VmHWM) < 200 MB, CSV / NDJSON / XLSX',
      measured: rss.map((run) => `${run.label} ${run.vmHwmMB} MB (idle before: ${run.startRssMB})`).join(', '),
      pass: rss.length > 0 ? Math.max(...rss.map((run) => run.vmHwmMB)) < TARGETS.rssMB : undefined,
    },
    {
      target: 'Q100 at 2 connections during CSV exports: p99 < 100 ms, no errors',
      measured: light
        ? `p99 ${light.load.p99Ms} ms, max ${light.load.maxMs} ms, ${light.load.responses} calls, ` +
          `${lightErrors} errors, ` +
          `${light.exports.length} exports (without exports: p99 ${light.quiet.p99Ms} ms)`
        : 'not measured',
      pass: light ? light.load.p99Ms < TARGETS.lightP99Ms && lightErrors === 0 && light.exports.length > 0 : undefined,
    },
  ];
}

/** Round 1 has every format; later rounds repeat the CSV ones. Each export on a freshly started server. */
async function exportRound(start: Start, assets: CallingAssets, target: PgTarget, index: number): Promise<Round> {
  const psql = psqlCopySeconds(target, EXPORT_SQL);
  const psqlNeutralised = psqlCopySeconds(target, NEUTRALISED_EXPORT_SQL);
  print(`round ${index}: psql \\copy ${psql} s, neutralised select ${psqlNeutralised} s`);
  const plan: [string, string, Format][] = [
    ['csv', assets.exportPlain, 'csv'],
    ['csv masked', assets.exportMasked, 'csv'],
    ...(index === 1
      ? ([
          ['ndjson', assets.exportPlain, 'ndjson'],
          ['xlsx', assets.exportPlain, 'xlsx'],
        ] as [string, string, Format][])
      : []),
  ];
  const runs: ExportRun[] = [];
  for (const [label, uid, format] of plan) {
    const run = await onFreshServer(start, (server, token) =>
      timeExport(label, exportUrl(server, uid, format), token, server.pid),
    );
    print(`  ${label}: ${run.seconds} s, first byte ${run.firstByteMs} ms, VmHWM ${run.vmHwmMB} MB`);
    runs.push(run);
  }
  return { psql, psqlNeutralised, runs };
}

function printExports(rounds: Round[], light: LightLoad): void {
  const rows = rounds.flatMap((r, index) => [
    [`#${index + 1} psql \\copy`, '–', r.psql, '1×', '–', '–', '–', '–', '–'],
    [
      `#${index + 1} psql \\copy neutralised`,
      '–',
      r.psqlNeutralised,
      `${round(r.psqlNeutralised / r.psql, 2)}×`,
      '–',
      '–',
      '–',
      '–',
      '–',
    ],
    ...r.runs.map((run) => exportRow(`#${index + 1} ${run.label}`, run, r.psql)),
  ]);
  const floor = rounds[0]?.psql ?? Number.NaN;
  rows.push(...light.exports.map((run) => exportRow(run.label, run, floor)));
  const header = [
    'export',
    'status',
    's',
    '÷ psql',
    'first byte ms',
    'MB',
    'RSS before MB',
    'RSS peak (sampled) MB',
    'VmHWM MB',
  ];
  printTable('Exports of 1,000,000 rows (each on a fresh server)', header, rows);
  for (const run of [light.quiet, light.load]) {
    print(
      `${run.label}: ${run.requestsPerSecond} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, max ${run.maxMs} ms, ` +
        `status ${JSON.stringify(run.statusCodes)}, errors ${run.errors}, timeouts ${run.timeouts}`,
    );
  }
}

const exportRow = (label: string, run: ExportRun, floor: number) => [
  label,
  run.status,
  run.seconds,
  `${round(run.seconds / floor, 2)}×`,
  run.firstByteMs,
  round(run.bytes / 1e6, 1),
  run.startRssMB,
  run.sampledPeakRssMB,
  run.vmHwmMB,
];

export async function exportsPart(
  options: BenchOptions,
  start: Start,
  assets: CallingAssets,
  target: PgTarget,
): Promise<ExportsData> {
  const repeats = intOption(options, 'export-runs', 3, 10);
  const rounds: Round[] = [];
  for (let index = 1; index <= repeats; index += 1) rounds.push(await exportRound(start, assets, target, index));
  const light = await underLightLoad(start, assets, intOption(options, 'light-duration', 10, 600));
  printExports(rounds, light);
  const data = { rounds, light };
  return {
    ...data,
    verdicts: verdicts(data),
    notes: [
      `export floor: ${psqlVersion()} \\copy (${EXPORT_SQL}) to /dev/null, measured before each round's exports`,
      'psql \\copy neutralised: the select the COPY path runs (formula-like text cells quoted in SQL), same floor',
    ],
  };
}
