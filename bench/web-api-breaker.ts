import { Agent, get } from 'node:http';
import { adminToken, type DataLabServer } from './lib/datalab.ts';
import { processCpuSeconds } from './lib/processes.ts';
import { randomLoad, type RandomLoadRun } from './lib/random-load.ts';
import { max, print, printTable, round } from './lib/stats.ts';
import type { Verdict } from './lib/types.ts';
import { upstreamCounts, type Upstream } from './web-api-setup.ts';

// "the circuit breaker answers a failing upstream in under 5 ms at p99 once open". The failing asset
// (/v1/fail answers 503, on a connection of its own) is called one call at a time until a call comes back 502 without
// reaching the upstream (its request count does not move): the breaker is open. Then, while it stays open (30 s
// cool-down, the connection's default), calls are timed one at a time — the latency of one caller, not a queue — and
// then under 50 connections for the record. The latencies of the first run are taken here, per call, to the
// microsecond (autocannon rounds to whole ms).

const TARGET_P99_MS = 5;
const MAX_OPENING_CALLS = 50;

export interface OpeningCall {
  status: number;
  ms: number;
  /** Requests the upstream received during the call (0: answered by the open breaker). */
  upstreamRequests: number;
}

export interface LatencyRun {
  label: string;
  connections: number;
  calls: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCodes: Record<string, number>;
  errors: number;
  serverCpuMsPerCall: number;
  /** Requests that reached the upstream meanwhile: a probe after the cool-down, else none. */
  upstreamRequests: number;
}

export interface BreakerData {
  opening: OpeningCall[];
  openReply: string;
  sequential: LatencyRun;
  loaded: RandomLoadRun & { connections: number; upstreamRequests: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** One GET on a kept-alive socket, resolved with the status when the whole reply is read. */
function call(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    request.once('error', reject);
  });
}

/** `connections` callers, each calling back to back for `seconds`; every call timed. */
async function timedCalls(url: string, headers: Record<string, string>, connections: number, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const status = await call(url, headers, agent);
        latencies.push(performance.now() - started);
        statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, caller));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, statusCodes, errors, elapsed };
}

async function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
  server: DataLabServer,
  upstream: Upstream,
  seconds: number,
): Promise<LatencyRun> {
  const before = { cpu: processCpuSeconds(server.pid), upstream: (await upstreamCounts(upstream)).fail };
  const run = await timedCalls(url, headers, 1, seconds);
  const cpu = processCpuSeconds(server.pid) - before.cpu;
  const upstreamRequests = (await upstreamCounts(upstream)).fail - before.upstream;
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const ms = (value: number) => round(value, 3);
  return {
    label,
    connections: 1,
    calls: sorted.length,
    callsPerSecond: round(sorted.length / run.elapsed),
    p50Ms: ms(percentile(sorted, 50)),
    p99Ms: ms(percentile(sorted, 99)),
    maxMs: ms(sorted.length > 0 ? max(sorted) : Number.NaN),
    statusCodes: run.statusCodes,
    errors: run.errors,
    serverCpuMsPerCall: sorted.length > 0 ? round((cpu * 1000) / sorted.length, 3) : Number.NaN,
    upstreamRequests,
  };
}

/** Calls one at a time until a call is answered without reaching the upstream; the calls it took. */
async function openBreaker(url: string, headers: Record<string, string>, upstream: Upstream) {
  const opening: OpeningCall[] = [];
  for (let index = 0; index < MAX_OPENING_CALLS; index += 1) {
    const before = (await upstreamCounts(upstream)).fail;
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = await response.text();
    const ms = round(performance.now() - started, 2);
    const upstreamRequests = (await upstreamCounts(upstream)).fail - before;
    opening.push({ status: response.status, ms, upstreamRequests });
    if (upstreamRequests === 0 && response.status >= 500) return { opening, openReply: body };
  }
  const last = opening.at(-1);
  throw new Error(
    `the circuit breaker did not open after ${MAX_OPENING_CALLS} calls (last: ${last?.status} in ${last?.ms} ms)`,
  );
}

export async function breakerPart(
  server: DataLabServer,
  upstream: Upstream,
  failingUid: string,
  options: { seconds: number; warmup: number; connections: number },
): Promise<BreakerData> {
  const url = `${server.baseUrl}/data/v1/${failingUid}`;
  const headers = { authorization: `Bearer ${await adminToken(server)}` };
  const { opening, openReply } = await openBreaker(url, headers, upstream);
  print(
    `breaker open after ${opening.length} calls: ` +
      opening.map((c) => `${c.status} in ${c.ms} ms (${c.upstreamRequests} upstream)`).join(', '),
  );
  await timedCalls(url, headers, 1, options.warmup);
  // Still open? (A warm-up longer than the cool-down lets a probe through, which opens it again.)
  await openBreaker(url, headers, upstream);
  const sequential = await measure('open breaker, 1 connection', url, headers, server, upstream, options.seconds);
  await openBreaker(url, headers, upstream);
  const before = (await upstreamCounts(upstream)).fail;
  const loaded = await randomLoad({
    label: `open breaker, ${options.connections} connections`,
    url,
    serverPid: server.pid,
    headers,
    connections: options.connections,
    seconds: options.seconds,
  });
  const upstreamRequests = (await upstreamCounts(upstream)).fail - before;
  return { opening, openReply, sequential, loaded: { ...loaded, connections: options.connections, upstreamRequests } };
}

export function printBreaker(data: BreakerData): void {
  const { sequential: s, loaded: l } = data;
  const rows = [
    [s.label, s.calls, s.callsPerSecond, s.p50Ms, s.p99Ms, s.maxMs, JSON.stringify(s.statusCodes), s.errors],
    [l.label, l.responses, l.requestsPerSecond, l.p50Ms, l.p99Ms, l.maxMs, JSON.stringify(l.statusCodes), l.errors],
  ];
  const cpu = [s.serverCpuMsPerCall, l.serverCpuMsPerRequest];
  const upstream = [s.upstreamRequests, l.upstreamRequests];
  printTable(
    'Failing upstream, circuit breaker open (1 connection: per-call µs timing; 50: autocannon, whole ms)',
    ['run', 'calls', 'calls/s', 'p50 ms', 'p99 ms', 'max ms', 'status', 'errors', 'srv CPU ms/call', 'upstream req'],
    rows.map((row, index) => [...row, cpu[index]!, upstream[index]!]),
  );
  print(`reply while open: ${data.openReply.slice(0, 300)}`);
}

export function breakerVerdict(data: BreakerData): Verdict {
  const s = data.sequential;
  const failures = Object.entries(s.statusCodes).filter(([status]) => Number(status) < 500);
  const opening = data.opening.map((c) => c.ms).join(', ');
  return {
    target: `circuit breaker open: a failing upstream answered in < ${TARGET_P99_MS} ms at p99`,
    measured:
      `p99 ${s.p99Ms} ms, p50 ${s.p50Ms} ms, max ${s.maxMs} ms over ${s.calls} calls at 1 connection ` +
      `(status ${JSON.stringify(s.statusCodes)}, ${s.upstreamRequests} reached the upstream); opened after ` +
      `${data.opening.length} calls (${opening} ms); at ${data.loaded.connections} connections ` +
      `p99 ${data.loaded.p99Ms} ms, ${data.loaded.requestsPerSecond} calls/s`,
    pass: s.calls > 0 && s.errors === 0 && failures.length === 0 && s.p99Ms < TARGET_P99_MS,
  };
}
