import { freePort } from '../apps/server/test/support/ports.ts';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { adminToken, ROOT, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { load, type LoadRun } from './lib/load.ts';
import { launch, pinToCpu, removeScratchDir, scratchDir, stop, waitFor200 } from './lib/processes.ts';
import { mean, median, print, printTable, round } from './lib/stats.ts';
import { intOption } from './lib/options.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Target ("Speed"): GET /api/Account/GetCurrentUser — authenticated, authorized, logged at the
// default level (info, one line per request) — at least 0.7 × a bare Fastify route returning the same
// JSON, 50 connections, measured side by side in one run.
// Runs alternate baseline/ours (A B A B …) so drift on the shared 2-core box hits both equally; the
// verdict is the median over rounds of each round's ratio (ours ÷ the baseline run just before it).
// Every round starts every server afresh: one process keeps its speed for its whole life, and two
// processes of the same build differ by up to a fifth (their code and heap land differently in the
// caches), so servers kept for a whole run made the run's verdict one draw of that luck.
// `--log-level=info,warn` runs one server per level in the same alternation (A B C A B C); the first
// level is the verdict. `--before=<another checkout>` adds that checkout's server at each level, to
// compare a change before/after in the same run.
// Every server runs pinned to CPU 0 and this process (the load generator) to CPU 1 (`--pin=off` leaves them to the
// scheduler): unpinned on the 2-vCPU VM, a round's ratio moved by ±0.15 from one round to the next.

const TARGET_RATIO = 0.7;
const PATH = '/api/Account/GetCurrentUser';

interface Baseline {
  pid: number;
  baseUrl: string;
}

async function startBaseline(body: string, busyMicros: number): Promise<Baseline & { stop: () => Promise<void> }> {
  const port = await freePort();
  const child = launch(process.execPath, ['bench/baseline-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BODY: body, BUSY_MICROS: String(busyMicros) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${baseUrl}/health/ready`, child, 10_000);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { pid: child.pid!, baseUrl, stop: () => stop(child) };
}

async function fetchBody(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text}`);
  return text;
}

function countLines(file: string): number {
  const content = readFileSync(file);
  let lines = 0;
  for (let index = content.indexOf(10); index !== -1; index = content.indexOf(10, index + 1)) lines += 1;
  return lines;
}

/** CPU the rest of the box used meanwhile (other sessions, builds): high values mean a noisy window. */
const otherCpu = (run: LoadRun) =>
  round(run.machineBusySeconds - run.serverCpuSeconds - run.loadGeneratorCpuSeconds, 1);

const summary = (runs: LoadRun[]) => ({
  requestsPerSecond: round(mean(runs.map((run) => run.requestsPerSecond))),
  serverCpuMsPerRequest: round(mean(runs.map((run) => run.serverCpuMsPerRequest)), 4),
  failed: runs.reduce((total, run) => total + run.non2xx + run.errors + run.timeouts, 0),
});

interface Contender {
  label: string;
  pid: number;
  url: string;
  headers: () => Promise<Record<string, string>>;
  /** Where the server's log lines go (ours only). */
  logFile?: string;
}

interface OurServer {
  label: string;
  logLevel: string;
  server: DataLabServer;
  logFile: string;
}

/** Our servers: one per log level, and one per level from the --before checkout. */
async function startOurs(workDir: string, logLevels: string[], before: string | undefined): Promise<OurServer[]> {
  const ours: OurServer[] = [];
  const checkouts: [string, string | undefined][] = [
    ['ours', undefined],
    ...(before ? [['before', resolve(before)] as [string, string]] : []),
  ];
  for (const [name, root] of checkouts) {
    for (const logLevel of logLevels) {
      const label = `${name} ${logLevel}`;
      const id = label.replace(' ', '-');
      const logFile = join(workDir, `stdout-${id}.log`);
      const server = await startDataLab({
        dataDir: join(workDir, `data-${id}`),
        logLevel,
        stdout: logFile,
        ...(root ? { root } : {}),
      });
      ours.push({ label, logLevel, logFile, server });
    }
  }
  return ours;
}

/** Each round's ratio to the baseline run of the same round, then the median over rounds. */
function perRoundRatios(mine: LoadRun[], base: LoadRun[]) {
  const rps = mine.map((run, index) => round(run.requestsPerSecond / base[index]!.requestsPerSecond, 3));
  const cpu = mine.map((run, index) => round(base[index]!.serverCpuMsPerRequest / run.serverCpuMsPerRequest, 3));
  return { rps, cpu, medianRps: round(median(rps), 3), medianCpu: round(median(cpu), 3) };
}

interface Comparison {
  label: string;
  logLevel: string;
  requestsPerSecond: number;
  serverCpuMsPerRequest: number;
  failed: number;
  /** Each round's req/s ratio to the baseline, and their median (the verdict). */
  ratios: number[];
  ratio: number;
  /** Each round's CPU-per-request ratio (baseline ÷ ours), and their median. */
  cpuRatios: number[];
  cpuRatio: number;
  logBytes: number;
  logLines: number;
}

/** One round: each contender warmed up, then each measured in turn; its run and the log bytes it wrote are added up. */
async function measureRound(
  contenders: Contender[],
  round: number,
  settings: { connections: number; seconds: number; warmupSeconds: number },
  totals: { runs: LoadRun[]; runsBy: Map<string, LoadRun[]>; logBytes: Map<string, number> },
): Promise<void> {
  const measure = async (contender: Contender, label: string, runSeconds: number) =>
    load({
      label,
      url: contender.url,
      serverPid: contender.pid,
      headers: await contender.headers(),
      connections: settings.connections,
      seconds: runSeconds,
    });
  for (const contender of contenders) await measure(contender, `warm-up ${contender.label}`, settings.warmupSeconds);
  const { runs, runsBy, logBytes } = totals;
  for (const { label, logFile, ...contender } of contenders) {
    const sizeBefore = logFile ? statSync(logFile).size : 0;
    const result = await measure({ label, ...contender }, `${label} ${round}`, settings.seconds);
    runs.push(result);
    runsBy.set(label, [...(runsBy.get(label) ?? []), result]);
    if (logFile) logBytes.set(label, (logBytes.get(label) ?? 0) + statSync(logFile).size - sizeBefore);
  }
}

function compare(ours: OurServer[], runsBy: Map<string, LoadRun[]>, logBytes: Map<string, number>): Comparison[] {
  const baseRuns = runsBy.get('baseline')!;
  return ours.map(({ label, logLevel, logFile }) => {
    const mine = runsBy.get(label)!;
    const ratios = perRoundRatios(mine, baseRuns);
    return {
      label,
      logLevel,
      ...summary(mine),
      ratios: ratios.rps,
      ratio: ratios.medianRps,
      cpuRatios: ratios.cpu,
      cpuRatio: ratios.medianCpu,
      logBytes: logBytes.get(label) ?? 0,
      logLines: countLines(logFile),
    };
  });
}

async function run(options: BenchOptions): Promise<BenchResult> {
  const settings = {
    connections: intOption(options, 'connections', 50, 1000),
    seconds: intOption(options, 'duration', 10, 600),
    warmupSeconds: intOption(options, 'warmup', 3, 600),
    rounds: intOption(options, 'rounds', 3, 60),
  };
  // Default: info (the verdict: the server's default level) and warn (reported beside it), in one alternation.
  const logLevels = (options['log-level'] ?? process.env.LOG_LEVEL ?? 'info,warn')
    .split(',')
    .filter(Boolean)
    .slice(0, 4);
  const workDir = scratchDir('current-user');
  const busyMicros = options['baseline-busy-us'] ? intOption(options, 'baseline-busy-us', 0, 1000) : 0;
  const pin = options['pin'] !== 'off' && availableParallelism() >= 2;
  let round: RoundServers | undefined;
  let body = '';
  let ours: OurServer[] = [];
  try {
    const totals = { runs: [] as LoadRun[], runsBy: new Map<string, LoadRun[]>(), logBytes: new Map<string, number>() };
    for (let index = 1; index <= settings.rounds; index += 1) {
      round = await startRound(workDir, logLevels, options['before'], busyMicros);
      ({ body, ours } = round);
      if (pin) {
        for (const { pid } of round.contenders) pinToCpu(pid, 0);
        pinToCpu(process.pid, 1);
      }
      await measureRound(round.contenders, index, settings, totals);
      await round.stop();
      round = undefined;
    }
    const { runs, runsBy, logBytes } = totals;
    printTable(
      `GetCurrentUser vs bare Fastify: ${settings.connections} connections × ${settings.seconds} s, LOG_LEVEL=${logLevels.join(',')}`,
      ['run', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/err', 'server CPU s', 'CPU ms/req', 'loadgen CPU s', 'other CPU s'],
      runs.map((r) => [
        r.label,
        r.requestsPerSecond,
        r.p50Ms,
        r.p99Ms,
        r.non2xx + r.errors + r.timeouts,
        r.serverCpuSeconds,
        r.serverCpuMsPerRequest,
        r.loadGeneratorCpuSeconds,
        otherCpu(r),
      ]),
    );
    const base = summary(runsBy.get('baseline')!);
    const comparisons = compare(ours, runsBy, logBytes);
    return report({ settings, body, runs, base, comparisons, pin });
  } finally {
    // The benches after this one run as before: on every core.
    pinToCpu(process.pid, 'own');
    await round?.stop();
    removeScratchDir(workDir);
  }
}

interface RoundServers {
  ours: OurServer[];
  /** What every server answered (they must agree). */
  body: string;
  /** The baseline first, then ours in their order. */
  contenders: Contender[];
  stop: () => Promise<void>;
}

/**
 * One round's servers, all started afresh: ours (one per log level and checkout; their data directories and log
 * files are kept between rounds) and the bare route, answering the body ours answer.
 */
async function startRound(
  workDir: string,
  logLevels: string[],
  before: string | undefined,
  busyMicros: number,
): Promise<RoundServers> {
  const ours = await startOurs(workDir, logLevels, before);
  let baseline: Awaited<ReturnType<typeof startBaseline>> | undefined;
  const stopAll = async () => {
    await baseline?.stop();
    for (const { server } of ours) await stop(server.child);
  };
  try {
    const bodies = await Promise.all(
      ours.map(async ({ server }) =>
        fetchBody(`${server.baseUrl}${PATH}`, { authorization: `Bearer ${await adminToken(server)}` }),
      ),
    );
    const body = bodies[0]!;
    if (bodies.some((other) => other !== body))
      throw new Error(`the servers answer differently: ${bodies.join(' / ')}`);
    // --baseline-busy-us=n: the bare route spins n µs a request (an experiment on the write's cost, not the verdict).
    baseline = await startBaseline(body, busyMicros);
    const baselineBody = await fetchBody(`${baseline.baseUrl}${PATH}`);
    if (baselineBody !== body) throw new Error(`the baseline answers ${baselineBody}, not ${body}`);
    const contenders: Contender[] = [
      { label: 'baseline', pid: baseline.pid, url: `${baseline.baseUrl}${PATH}`, headers: async () => ({}) },
      ...ours.map(({ label, server, logFile }) => ({
        label,
        pid: server.pid,
        url: `${server.baseUrl}${PATH}`,
        // A fresh token per run: access tokens live 15 minutes, long --duration/--rounds outlast one.
        headers: async () => ({ authorization: `Bearer ${await adminToken(server)}` }),
        logFile,
      })),
    ];
    return { ours, body, contenders, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function report(result: {
  settings: { connections: number; seconds: number; warmupSeconds: number; rounds: number };
  pin: boolean;
  body: string;
  runs: LoadRun[];
  base: ReturnType<typeof summary>;
  comparisons: Comparison[];
}): BenchResult {
  const { settings, runs, base, comparisons, pin } = result;
  print();
  for (const c of comparisons) {
    print(
      `${c.label}: req/s ratio per round ${c.ratios.join(', ')} → median ${c.ratio} (target ≥ ${TARGET_RATIO}); mean ${c.requestsPerSecond} vs baseline ${base.requestsPerSecond} req/s;` +
        ` CPU ms/req ${c.serverCpuMsPerRequest} vs ${base.serverCpuMsPerRequest}, CPU ratio per round ${c.cpuRatios.join(', ')} → median ${c.cpuRatio}`,
    );
  }
  return {
    name: 'current-user',
    verdicts: comparisons.map((c, index) => ({
      target: `GetCurrentUser req/s ≥ ${TARGET_RATIO} × bare Fastify (${settings.connections} conns, ${c.label}; median of ${settings.rounds} rounds)${index > 0 ? ' (reported, not the verdict)' : ''}`,
      measured: `ratio ${c.ratio} (rounds ${c.ratios.join(', ')}); ours ${c.requestsPerSecond} req/s, bare ${base.requestsPerSecond} req/s; CPU ms/req ${c.serverCpuMsPerRequest} vs ${base.serverCpuMsPerRequest}`,
      pass: index > 0 ? undefined : c.ratio >= TARGET_RATIO && c.failed === 0,
    })),
    notes: [
      ...comparisons.map(
        (c) =>
          `${c.label}: server stdout (pino JSON) went to a file in a temp dir: ${round(c.logBytes / 1e6, 1)} MB during the measured runs, ${c.logLines} lines in all.`,
      ),
      ...comparisons.map(
        (c) =>
          `${c.label}: server CPU per request ${c.serverCpuMsPerRequest} ms vs baseline ${base.serverCpuMsPerRequest} ms (median CPU ratio ${c.cpuRatio}).`,
      ),
      ...(runs.some((r) => r.non2xx + r.errors + r.timeouts > 0)
        ? ['Some runs had non-2xx answers, errors or timeouts: see the table.']
        : []),
      pin
        ? 'The servers ran on CPU 0, the load generator (autocannon, in the bench process) on CPU 1; "other CPU" is the rest of the box.'
        : 'The load generator (autocannon, in the bench process) shared the cores with the servers; "other CPU" is the rest of the box.',
    ],
    data: { ...settings, pin, body: result.body, runs, baseline: base, comparisons },
  };
}

export const currentUser: Bench = { name: 'current-user', run };
