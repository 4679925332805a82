import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pgTarget } from './calling-layer.ts';
import { createAssets, ensureOrders } from './lib/calling-setup.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { scratchDir, stop } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult, Verdict } from './lib/types.ts';
import {
  collectionOf,
  createPat,
  revocationPart,
  revocationVerdicts,
  type Pat,
  type RevocationData,
} from './tokens-revocation.ts';

// Target: the calling layer with a Data Lab token against the same with an OIDC token — same asset (the
// calling-layer bench's Q100, cache off: 100 rows of one random customer of 10,000), same server, same run. (a) the
// demo administrator's OIDC access token (signed in through the login form), (b) a personal access token of that
// administrator made with POST /api/Token (Reader on the asset's collection). Rounds alternate A B A B, each side
// warmed up first; the verdict is the median over rounds of each round's req/s ratio token ÷ OIDC (target ≥ 0.95).
// Then "revocation holds on the next call" (tokens-revocation.ts): one instance, under load, and two instances on
// one PostgreSQL metadata store.

const TARGET_RATIO = 0.95;
/** The calling layer's per-caller budget (decision 76) would turn the load into 429s: lifted to its maximum. */
const RATE_LIMIT_PER_MINUTE = '1000000';

type Side = 'oidc' | 'token';

interface LoadData {
  runs: (RandomLoadRun & { side: Side; round: number })[];
  ratios: number[];
}

interface TokensData {
  load?: LoadData;
  revocation?: RevocationData;
}

async function loadPart(
  server: DataLabServer,
  assetUid: string,
  pat: Pat,
  options: Record<string, string>,
): Promise<LoadData> {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 15, 600);
  const warmup = intOption(options, 'warmup', 5, 600);
  const rounds = intOption(options, 'rounds', 3, 10);
  const url = `${server.baseUrl}/data/v1/${assetUid}?customer_id={id}`;
  const runs: LoadData['runs'] = [];
  for (let round_ = 1; round_ <= rounds; round_ += 1) {
    for (const side of ['oidc', 'token'] as const) {
      // A fresh sign-in per run: access tokens live 15 minutes.
      const credential = side === 'oidc' ? await adminToken(server) : pat.secret;
      const headers = { authorization: `Bearer ${credential}` };
      const load = { url, serverPid: server.pid, headers, connections };
      await randomLoad({ ...load, label: 'warm-up', seconds: warmup });
      // Let the calls autocannon cut off at the end of the warm-up give their pool slots back.
      await sleep(1000);
      const run = await randomLoad({ ...load, label: `${side} #${round_}`, seconds });
      runs.push({ ...run, side, round: round_ });
      print(
        `${run.label}: ${run.requestsPerSecond} req/s, p99 ${run.p99Ms} ms, ${run.serverCpuMsPerRequest} CPU ms/req, ` +
          `non-2xx ${run.non2xx}`,
      );
    }
  }
  const ratios: number[] = [];
  for (let round_ = 1; round_ <= rounds; round_ += 1) {
    const of = (side: Side) => runs.find((run) => run.side === side && run.round === round_);
    const [oidc, token] = [of('oidc'), of('token')];
    if (oidc && token && oidc.requestsPerSecond > 0)
      ratios.push(round(token.requestsPerSecond / oidc.requestsPerSecond, 3));
  }
  return { runs, ratios };
}

function printLoad(data: LoadData) {
  const oidcOf = (run: LoadData['runs'][number]) =>
    data.runs.find((other) => other.side === 'oidc' && other.round === run.round);
  const rows = data.runs.map((run) => {
    const oidc = oidcOf(run);
    return [
      run.label,
      run.requestsPerSecond,
      run.p50Ms,
      run.p99Ms,
      run.non2xx + run.errors + run.timeouts,
      run.serverCpuMsPerRequest,
      run.postgresCpuMsPerRequest,
      run.loadGeneratorCpuSeconds,
      run.otherCpuSeconds,
      oidc ? `${round(run.requestsPerSecond / oidc.requestsPerSecond, 3)}×` : '–',
    ];
  });
  printTable(
    'Q100 cache off, random ids 1..10000: OIDC access token vs personal access token',
    [
      'run',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'srv CPU ms/req',
      'pg CPU ms/req',
      'autocannon CPU s',
      'other CPU s',
      '÷ OIDC',
    ],
    rows,
  );
}

function loadVerdict(data: LoadData): Verdict {
  const refused = data.runs.filter((run) => run.non2xx > 0);
  const cpu = (side: Side) => median(data.runs.filter((run) => run.side === side).map((r) => r.serverCpuMsPerRequest));
  const detail =
    `median of ${data.ratios.length} rounds (${data.ratios.join(', ')}); server CPU ms/req token ` +
    `${round(cpu('token'), 3)} vs OIDC ${round(cpu('oidc'), 3)}` +
    (refused.length > 0 ? `; non-2xx in ${refused.map((run) => run.label).join(', ')}` : '');
  if (data.ratios.length === 0) return { target: 'token ÷ OIDC req/s', measured: 'not measured', pass: undefined };
  const ratio = round(median(data.ratios), 3);
  return {
    target: `Q100 with a personal access token ≥ ${TARGET_RATIO} × with an OIDC token (req/s)`,
    measured: `${ratio}× (${detail})`,
    pass: ratio >= TARGET_RATIO && refused.length === 0,
  };
}

export const tokens: Bench = {
  name: 'tokens',
  async run(options): Promise<BenchResult> {
    const target = pgTarget(options);
    const dataset = ensureOrders(target);
    const dataDir = scratchDir('tokens');
    const logFile = join(dataDir, 'server.log');
    const part = options['part'] ?? 'all';
    const env = { RATE_LIMIT_PER_MINUTE };
    const server = await startDataLab({ dataDir, logLevel: 'info', stdout: logFile, env });
    const data: TokensData = {};
    try {
      const assets = await createAssets(server, target, 0);
      const oidc = await adminToken(server);
      const collection = await collectionOf(server, oidc, assets.cacheOff);
      if (part !== 'revocation') {
        const pat = await createPat(server, oidc, collection, 'Bench load');
        data.load = await loadPart(server, assets.cacheOff, pat, options);
      }
      if (part !== 'load') {
        const instances =
          options['instances'] === 'off'
            ? undefined
            : { target, dataDir: scratchDir('tokens-instances'), logFile: join(dataDir, 'instances.log') };
        data.revocation = await revocationPart(server, assets.cacheOff, collection, instances);
      }
    } finally {
      await stop(server.child);
    }
    if (data.load) printLoad(data.load);
    return {
      name: 'tokens',
      verdicts: [
        ...(data.load ? [loadVerdict(data.load)] : []),
        ...(data.revocation ? revocationVerdicts(data.revocation) : []),
      ],
      notes: [
        `PostgreSQL ${target.host}:${target.port}/${target.database} (orders ${dataset}); Data Lab: embedded store, ` +
          `LOG_LEVEL=info, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE}; asset Q100 cache off`,
        ...(data.revocation?.notes ?? []),
      ],
      data: { target, ...data },
    };
  },
};
