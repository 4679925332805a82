import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pgTarget } from './calling-layer.ts';
import { createQ100Assets, ensureOrders } from './lib/calling-setup.ts';
import { adminToken, startDataLab } from './lib/datalab.ts';
import { envOption, intOption } from './lib/options.ts';
import { scratchDir, stop } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchResult, Verdict } from './lib/types.ts';

// a tool call over the MCP endpoint against the same asset over /data/v1 as JSON, side by side in one run
// on one server: the calling-layer bench's Q100 (100 rows of one random customer of 10,000, cache off), made
// available to AI agents. (a) GET /data/v1/{uid}?customer_id=N, (b) POST /mcp with a JSON-RPC tools/call of the
// asset's tool (a stateless request, as every MCP request is: the fast path — or with
// --server-env="MCP_FAST_PATH=false" the SDK's own server and transport — the tool resolved from the caller's
// tools, then the same call path). Same admin access token on both. Rounds alternate A B, each
// side warmed up first; the verdict is the median over rounds of each round's latency-free ratio of req/s:
// /data/v1 ÷ MCP, i.e. what a tool call costs relative to the same call over /data/v1 (target ≤ 1.25).

const TARGET_RATIO = 1.25;
const RATE_LIMIT_PER_MINUTE = '1000000';
const TOOL = 'q100_cache_off_1';

type Side = 'data-api' | 'mcp';

interface Data {
  runs: (RandomLoadRun & { side: Side; round: number })[];
  ratios: number[];
}

export const mcp: Bench = {
  name: 'mcp',
  async run(options): Promise<BenchResult> {
    const target = pgTarget(options);
    const dataset = ensureOrders(target);
    const connections = intOption(options, 'connections', 50, 1000);
    const seconds = intOption(options, 'duration', 10, 600);
    const warmup = intOption(options, 'warmup', 3, 600);
    const rounds = intOption(options, 'rounds', 3, 10);
    const dataDir = scratchDir('mcp');
    // --server-env="MCP_FAST_PATH=false" measures the SDK's path instead of the fast path.
    // The bench's PostgreSQL is on this machine, which SQL connections may reach only when allowed.
    const env: Record<string, string> = {
      RATE_LIMIT_PER_MINUTE,
      MCP_ENABLED: 'true',
      SQL_HOST_ALLOWLIST: target.host,
      ...envOption(options, 'server-env'),
    };
    const server = await startDataLab({ dataDir, logLevel: 'info', stdout: join(dataDir, 'server.log'), env });
    const data: Data = { runs: [], ratios: [] };
    try {
      const { uids } = await createQ100Assets(server, target, 1, { mcpAvailable: true });
      const uid = uids[0]!;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: TOOL, arguments: { customer_id: 0 } },
      }).replace('"customer_id":0', '"customer_id":{id}');
      for (let round_ = 1; round_ <= rounds; round_ += 1) {
        // One sign-in a round, the same token on both sides (a sign-in per run failed now and then on a busy host).
        const authorization = `Bearer ${await adminToken(server)}`;
        for (const side of ['data-api', 'mcp'] as const) {
          const load: { url: string; headers: Record<string, string>; body?: string } =
            side === 'data-api'
              ? { url: `${server.baseUrl}/data/v1/${uid}?customer_id={id}`, headers: { authorization } }
              : {
                  url: `${server.baseUrl}/mcp`,
                  body,
                  headers: {
                    authorization,
                    'content-type': 'application/json',
                    accept: 'application/json, text/event-stream',
                    'mcp-protocol-version': '2025-11-25',
                  },
                };
          const common = { ...load, serverPid: server.pid, connections };
          await randomLoad({ ...common, label: 'warm-up', seconds: warmup });
          await sleep(1000);
          const run = await randomLoad({ ...common, label: `${side} #${round_}`, seconds });
          data.runs.push({ ...run, side, round: round_ });
          print(
            `${run.label}: ${run.requestsPerSecond} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
              `${run.serverCpuMsPerRequest} CPU ms/req, non-2xx ${run.non2xx}`,
          );
        }
        const of = (side: Side) => data.runs.find((run) => run.side === side && run.round === round_);
        const [api, tool] = [of('data-api'), of('mcp')];
        if (api && tool && tool.requestsPerSecond > 0) {
          data.ratios.push(round(api.requestsPerSecond / tool.requestsPerSecond, 3));
        }
      }
    } finally {
      await stop(server.child);
    }
    printTable(
      'Q100 cache off: /data/v1 JSON vs an MCP tool call (same asset, same server, same token)',
      ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'srv CPU ms/req', 'pg CPU ms/req', 'other CPU s'],
      data.runs.map((run) => [
        run.label,
        run.requestsPerSecond,
        run.p50Ms,
        run.p99Ms,
        run.non2xx + run.errors + run.timeouts,
        run.serverCpuMsPerRequest,
        run.postgresCpuMsPerRequest,
        run.otherCpuSeconds,
      ]),
    );
    const refused = data.runs.filter((run) => run.non2xx + run.errors > 0);
    const cpu = (side: Side) =>
      median(data.runs.filter((run) => run.side === side).map((r) => r.serverCpuMsPerRequest));
    const verdict: Verdict =
      data.ratios.length === 0
        ? { target: 'MCP tool call cost ÷ /data/v1', measured: 'not measured', pass: undefined }
        : {
            target: `an MCP tool call costs ≤ ${TARGET_RATIO} × the same asset over /data/v1 as JSON (req/s ratio)`,
            measured:
              `${round(median(data.ratios), 3)}× (median of ${data.ratios.length} rounds: ${data.ratios.join(', ')}; ` +
              `server CPU ms/req MCP ${round(cpu('mcp'), 3)} vs /data/v1 ${round(cpu('data-api'), 3)})` +
              (refused.length > 0 ? `; errors in ${refused.map((run) => run.label).join(', ')}` : ''),
            pass: median(data.ratios) <= TARGET_RATIO && refused.length === 0,
          };
    return {
      name: 'mcp',
      verdicts: [verdict],
      notes: [
        `PostgreSQL ${target.host}:${target.port}/${target.database} (orders ${dataset}); Data Lab: embedded store, ` +
          `LOG_LEVEL=info, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE}, MCP_ENABLED=true, ` +
          `MCP_FAST_PATH=${env['MCP_FAST_PATH'] ?? 'true'}; ${connections} ` +
          `connections, ${warmup} s warm-up, ${seconds} s per run`,
      ],
      data: { target, ...data },
    };
  },
};
