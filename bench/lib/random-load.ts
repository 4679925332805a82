import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { machineBusySeconds, processCpuSeconds } from './processes.ts';
import { round } from './stats.ts';

// autocannon with a fresh random customer id in every request (the peers' Q100: ids uniformly 1..10000), and the
// CPU it cost: the server process, PostgreSQL (every `postgres` process), this process (the load generator) and
// the whole machine, so load from other sessions on the box shows as "other".

export interface RandomLoadRun {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  serverCpuSeconds: number;
  serverCpuMsPerRequest: number;
  postgresCpuSeconds: number;
  postgresCpuMsPerRequest: number;
  loadGeneratorCpuSeconds: number;
  machineBusySeconds: number;
  otherCpuSeconds: number;
}

export interface RandomLoadOptions {
  label: string;
  /** Origin and path with `{id}` where the customer id goes. */
  url: string;
  serverPid: number;
  headers?: Record<string, string>;
  /** POST this body instead of a GET, with `{id}` where the customer id goes (the MCP bench's JSON-RPC call). */
  body?: string;
  connections: number;
  seconds: number;
  maxId?: number;
}

/** CPU seconds so far of every process named `postgres` (the cluster's backends and workers), by pid, from /proc. */
export function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        byPid.set(Number(entry), processCpuSeconds(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/**
 * CPU PostgreSQL used between two snapshots: what each process alive at the end used since the first (all of it
 * for a backend started meanwhile). A backend that exited meanwhile (an idle pool connection timing out) drops out
 * rather than counting negative.
 */
export function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of postgresCpu()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

export async function randomLoad(options: RandomLoadOptions): Promise<RandomLoadRun> {
  const url = new URL(options.url.replace('{id}', '1'));
  const pathTemplate = options.url.slice(url.origin.length);
  const maxId = options.maxId ?? 10_000;
  const before = {
    server: processCpuSeconds(options.serverPid),
    postgres: postgresCpu(),
    self: process.cpuUsage(),
    machine: machineBusySeconds(),
  };
  const result = await autocannon({
    url: url.origin,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
    requests: [
      {
        method: options.body === undefined ? 'GET' : 'POST',
        setupRequest: (request) => {
          const id = String(1 + Math.floor(Math.random() * maxId));
          return {
            ...request,
            path: pathTemplate.replace('{id}', id),
            ...(options.body === undefined ? {} : { body: options.body.replace('{id}', id) }),
          };
        },
      },
    ],
  });
  const server = processCpuSeconds(options.serverPid) - before.server;
  const postgres = postgresCpuSince(before.postgres);
  const selfUsage = process.cpuUsage(before.self);
  const self = (selfUsage.user + selfUsage.system) / 1e6;
  const machine = machineBusySeconds() - before.machine;
  const responses = result.requests.total;
  const perRequest = (seconds: number) => (responses > 0 ? round((seconds * 1000) / responses, 3) : Number.NaN);
  return {
    label: options.label,
    requestsPerSecond: round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    responses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    serverCpuSeconds: round(server, 2),
    serverCpuMsPerRequest: perRequest(server),
    postgresCpuSeconds: round(postgres, 2),
    postgresCpuMsPerRequest: perRequest(postgres),
    loadGeneratorCpuSeconds: round(self, 2),
    machineBusySeconds: round(machine, 2),
    otherCpuSeconds: round(Math.max(0, machine - server - postgres - self), 2),
  };
}
