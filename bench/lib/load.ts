import autocannon from 'autocannon';
import { machineBusySeconds, processCpuSeconds } from './processes.ts';
import { round } from './stats.ts';

// One autocannon run with the CPU it cost: the server process (from /proc), this process (the load
// generator, in-process autocannon) and the whole machine, so "other" load on the box is visible.

export interface LoadRun {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  serverCpuSeconds: number;
  /** Server CPU per answered request: the figure that travels between machines. */
  serverCpuMsPerRequest: number;
  loadGeneratorCpuSeconds: number;
  machineBusySeconds: number;
  /** Start and end on the monotonic clock (µs), to cut a --cpu-prof profile to this window. */
  windowMicros: [number, number];
}

export interface LoadOptions {
  label: string;
  url: string;
  serverPid: number;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export async function load(options: LoadOptions): Promise<LoadRun> {
  const serverBefore = processCpuSeconds(options.serverPid);
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const startMicros = monotonicMicros();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
  });
  const endMicros = monotonicMicros();
  const serverCpuSeconds = processCpuSeconds(options.serverPid) - serverBefore;
  const self = process.cpuUsage(selfBefore);
  const responses = result.requests.total;
  return {
    label: options.label,
    requestsPerSecond: round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    responses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    serverCpuSeconds: round(serverCpuSeconds, 2),
    serverCpuMsPerRequest: responses > 0 ? round((serverCpuSeconds * 1000) / responses, 4) : Number.NaN,
    loadGeneratorCpuSeconds: round((self.user + self.system) / 1e6, 2),
    machineBusySeconds: round(machineBusySeconds() - machineBefore, 2),
    windowMicros: [startMicros, endMicros],
  };
}
