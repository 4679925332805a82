import { freePort } from '../apps/server/src/testing/ports.ts';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken, ROOT, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { load, type LoadRun } from './lib/load.ts';
import { launch, removeScratchDir, scratchDir, stop, waitFor200 } from './lib/processes.ts';
import { mean, print, printTable, round } from './lib/stats.ts';
import { intOption } from './lib/options.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Target: "GET /api/Account/GetCurrentUser with a valid token, 50 connections: throughput at least
// half of a bare Fastify route returning the same JSON, measured in the same run."
// Runs alternate baseline/ours (A B A B) so drift on the shared 2-core box hits both equally.
// `--log-level=info,warn` runs one server per level in the same alternation (A B C A B C), to see
// what logging costs within one run.

const TARGET_RATIO = 0.5;
const PATH = '/api/Account/GetCurrentUser';

interface Baseline {
  pid: number;
  baseUrl: string;
}

async function startBaseline(body: string): Promise<Baseline & { stop: () => Promise<void> }> {
  const port = await freePort();
  const child = launch(process.execPath, ['bench/baseline-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BODY: body },
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
const otherCpu = (run: LoadRun) => round(run.machineBusySeconds - run.serverCpuSeconds - run.loadGeneratorCpuSeconds, 1);

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
}

interface OurServer {
  logLevel: string;
  server: DataLabServer;
  logFile: string;
}

async function run(options: BenchOptions): Promise<BenchResult> {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 10, 600);
  const warmupSeconds = intOption(options, 'warmup', 3, 600);
  const rounds = intOption(options, 'rounds', 2, 10);
  // Default: warn (the verdict, as the peer figures run Directus) and info (reported beside it), in one alternation.
  const logLevels = (options['log-level'] ?? process.env.LOG_LEVEL ?? 'warn,info').split(',').filter(Boolean).slice(0, 4);
  const workDir = scratchDir('current-user');
  const ours: OurServer[] = [];
  let baseline: Awaited<ReturnType<typeof startBaseline>> | undefined;
  try {
    for (const logLevel of logLevels) {
      const logFile = join(workDir, `stdout-${logLevel}.log`);
      ours.push({ logLevel, logFile, server: await startDataLab({ dataDir: join(workDir, `data-${logLevel}`), logLevel, stdout: logFile }) });
    }
    const bodies = await Promise.all(
      ours.map(async ({ server }) => fetchBody(`${server.baseUrl}${PATH}`, { authorization: `Bearer ${await adminToken(server)}` })),
    );
    const body = bodies[0]!;
    if (bodies.some((other) => other !== body)) throw new Error(`the servers answer differently: ${bodies.join(' / ')}`);
    const bare = await startBaseline(body);
    baseline = bare;
    const baselineBody = await fetchBody(`${bare.baseUrl}${PATH}`);
    if (baselineBody !== body) throw new Error(`the baseline answers ${baselineBody}, not ${body}`);

    const contenders: Contender[] = [
      { label: 'baseline', pid: bare.pid, url: `${bare.baseUrl}${PATH}`, headers: async () => ({}) },
      ...ours.map(({ logLevel, server }) => ({
        label: logLevels.length > 1 ? `ours ${logLevel}` : 'ours',
        pid: server.pid,
        url: `${server.baseUrl}${PATH}`,
        // A fresh token per run: access tokens live 15 minutes, long --duration/--rounds outlast one.
        headers: async () => ({ authorization: `Bearer ${await adminToken(server)}` }),
      })),
    ];
    const measure = async (contender: Contender, label: string, runSeconds: number) =>
      load({ label, url: contender.url, serverPid: contender.pid, headers: await contender.headers(), connections, seconds: runSeconds });
    for (const contender of contenders) await measure(contender, `warm-up ${contender.label}`, warmupSeconds);
    const logBytesBefore = ours.map(({ logFile }) => statSync(logFile).size);
    const runsBy = new Map(contenders.map((contender) => [contender.label, [] as LoadRun[]]));
    const runs: LoadRun[] = [];
    for (let index = 1; index <= rounds; index += 1) {
      for (const contender of contenders) {
        const result = await measure(contender, `${contender.label} ${index}`, seconds);
        runs.push(result);
        runsBy.get(contender.label)!.push(result);
      }
    }

    printTable(
      `GetCurrentUser vs bare Fastify: ${connections} connections × ${seconds} s, LOG_LEVEL=${logLevels.join(',')}`,
      ['run', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/err', 'server CPU s', 'CPU ms/req', 'loadgen CPU s', 'other CPU s'],
      runs.map((r) => [r.label, r.requestsPerSecond, r.p50Ms, r.p99Ms, r.non2xx + r.errors + r.timeouts, r.serverCpuSeconds, r.serverCpuMsPerRequest, r.loadGeneratorCpuSeconds, otherCpu(r)]),
    );
    const summaries = Object.fromEntries([...runsBy].map(([label, group]) => [label, summary(group)]));
    const base = summaries['baseline']!;
    const comparisons = ours.map(({ logLevel, logFile }, index) => {
      const mine = summaries[contenders[index + 1]!.label]!;
      return {
        logLevel,
        ...mine,
        ratio: round(mine.requestsPerSecond / base.requestsPerSecond, 3),
        cpuRatio: round(base.serverCpuMsPerRequest / mine.serverCpuMsPerRequest, 3),
        logBytes: statSync(logFile).size - logBytesBefore[index]!,
        logLines: countLines(logFile),
      };
    });
    print();
    for (const c of comparisons) {
      print(`LOG_LEVEL=${c.logLevel}: mean ${c.requestsPerSecond} req/s vs baseline ${base.requestsPerSecond} → ratio ${c.ratio} (target ≥ ${TARGET_RATIO});`
        + ` CPU ms/req ${c.serverCpuMsPerRequest} vs ${base.serverCpuMsPerRequest} → ratio ${c.cpuRatio}`);
    }

    return {
      name: 'current-user',
      verdicts: comparisons.map((c, index) => ({
        target: `GetCurrentUser req/s ≥ ${TARGET_RATIO} × bare Fastify (${connections} conns, LOG_LEVEL=${c.logLevel})${index > 0 ? ' (reported, not the verdict)' : ''}`,
        measured: `ours ${c.requestsPerSecond} req/s, bare ${base.requestsPerSecond} req/s → ratio ${c.ratio}`,
        pass: index > 0 ? undefined : c.ratio >= TARGET_RATIO && c.failed === 0,
      })),
      notes: [
        ...comparisons.map((c) => `LOG_LEVEL=${c.logLevel}: server stdout (pino JSON) went to a file in a temp dir: ${round(c.logBytes / 1e6, 1)} MB during the measured runs, ${c.logLines} lines in all.`),
        ...comparisons.map((c) => `LOG_LEVEL=${c.logLevel}: server CPU per request ${c.serverCpuMsPerRequest} ms vs baseline ${base.serverCpuMsPerRequest} ms (ratio ${c.cpuRatio}).`),
        ...(runs.some((r) => r.non2xx + r.errors + r.timeouts > 0) ? ['Some runs had non-2xx answers, errors or timeouts: see the table.'] : []),
        'The load generator (autocannon, in the bench process) shares the 2 cores with the servers; "other CPU" is the rest of the box.',
      ],
      data: { connections, seconds, warmupSeconds, rounds, body, runs, baseline: base, comparisons },
    };
  } finally {
    await baseline?.stop();
    for (const { server } of ours) await stop(server.child);
    removeScratchDir(workDir);
  }
}

export const currentUser: Bench = { name: 'current-user', run };
