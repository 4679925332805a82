import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type { Config } from '../../apps/server/src/config.ts';
import { createPostgresDatabase } from '../../apps/server/test/support/stores.ts';
import type { pgTarget } from '../calling-layer.ts';
import { addCallers } from './bench-callers.ts';
import { createQ100Assets } from './calling-setup.ts';
import { adminToken, startDataLab, type DataLabServer } from './datalab.ts';
import { machineBusySeconds, processCpuSeconds, scratchDir, stop } from './processes.ts';
import { postgresCpu, postgresCpuSince } from './random-load.ts';
import { print, round } from './stats.ts';

// The two sides of the recording bench (bench/recording.ts): a server with USAGE_RECORDING on and one with it off,
// each with its Q100 assets and callers, and the ways of driving them — one side after the other, or both at once.

/** The calling layer's per-caller budget would turn the load into 429s: lifted to its maximum. */
export const RATE_LIMIT_PER_MINUTE = '1000000';

export type Side = 'on' | 'off';
export type Store = 'sqlite' | 'postgres';
export type Traffic = 'varied' | 'single';

export interface Run {
  store: Store;
  traffic: Traffic;
  side: Side;
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  serverCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number;
  otherCpuSeconds: number;
}

export interface Target {
  side: Side;
  server: DataLabServer;
  dataDir: string;
  env: Record<string, string>;
  database: Config['database'];
  assets: string[];
  secrets: string[];
  adminToken: string;
  drop?: () => Promise<void>;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const customer = () => String(1 + Math.floor(Math.random() * 10_000));

/** One autocannon run, at `rate` req/s overall (or as fast as it goes), with its CPU. */
export async function drive(
  target: Target,
  traffic: Traffic,
  meta: { store: Store; label: string },
  seconds: number,
  connections: number,
  rate?: number,
) {
  const base = target.server.baseUrl;
  const single = target.assets[0]!;
  const before = {
    server: processCpuSeconds(target.server.pid),
    postgres: postgresCpu(),
    self: process.cpuUsage(),
    machine: machineBusySeconds(),
  };
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    headers: { authorization: `Bearer ${target.adminToken}` },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) =>
          traffic === 'single'
            ? { ...request, path: `/data/v1/${single}?customer_id=${customer()}` }
            : {
                ...request,
                path: `/data/v1/${pick(target.assets)}?customer_id=${customer()}`,
                headers: { ...request.headers, authorization: `Bearer ${pick(target.secrets)}` },
              },
      },
    ],
  });
  const server = processCpuSeconds(target.server.pid) - before.server;
  const postgres = postgresCpuSince(before.postgres);
  const selfUsage = process.cpuUsage(before.self);
  const machine = machineBusySeconds() - before.machine;
  const responses = result.requests.total;
  const perRequest = (cpu: number) => (responses > 0 ? round((cpu * 1000) / responses, 4) : Number.NaN);
  return {
    store: meta.store,
    traffic,
    side: target.side,
    label: meta.label,
    requestsPerSecond: round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    serverCpuMsPerRequest: perRequest(server),
    postgresCpuMsPerRequest: perRequest(postgres),
    otherCpuSeconds: round(Math.max(0, machine - server - postgres - (selfUsage.user + selfUsage.system) / 1e6), 2),
  } satisfies Run;
}

/** One round side after side (the default): each side warmed up, then driven alone at the whole rate. */
export async function driveInTurn(
  sides: Target[],
  traffic: Traffic,
  meta: { store: Store; round: number },
  load: { seconds: number; warmup: number; connections: number; rate: number },
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const side of sides) {
    side.adminToken = await adminToken(side.server); // access tokens live 15 minutes
    await drive(side, traffic, { store: meta.store, label: 'warm-up' }, load.warmup, load.connections, load.rate);
    await sleep(500);
    const label = `${meta.store} ${traffic} ${side.side} #${meta.round} at ${load.rate}/s`;
    const run = await drive(side, traffic, { store: meta.store, label }, load.seconds, load.connections, load.rate);
    runs.push(run);
    print(`${run.label}: ${run.requestsPerSecond} req/s, ${run.serverCpuMsPerRequest} CPU ms/req`);
  }
  return runs;
}

/**
 * `--together`: both sides driven at the same time, each at half the rate, so that whatever else the host does in
 * that window (another tenant's load on a shared VM, frequency changes) costs both alike: on a noisy host the CPU
 * per request of one 15-s window differs from the next by ±15 %, three times the effect measured.
 */
export async function driveTogether(
  sides: Target[],
  traffic: Traffic,
  meta: { store: Store; round: number },
  load: { seconds: number; warmup: number; connections: number; rate: number },
): Promise<Run[]> {
  const half = Math.max(1, Math.round(load.rate / 2));
  for (const side of sides) side.adminToken = await adminToken(side.server); // access tokens live 15 minutes
  await Promise.all(
    sides.map((side) =>
      drive(side, traffic, { store: meta.store, label: 'warm-up' }, load.warmup, load.connections, half),
    ),
  );
  await sleep(500);
  const runs = await Promise.all(
    sides.map((side) => {
      const label = `${meta.store} ${traffic} ${side.side} #${meta.round} at ${half}/s, together`;
      return drive(side, traffic, { store: meta.store, label }, load.seconds, load.connections, half);
    }),
  );
  for (const run of runs)
    print(`${run.label}: ${run.requestsPerSecond} req/s, ${run.serverCpuMsPerRequest} CPU ms/req`);
  return runs;
}

/** A server with the assets, stopped to add the callers to its store, then started again. */
export async function startSide(
  side: Side,
  store: Store,
  pg: ReturnType<typeof pgTarget>,
  counts: { assets: number; callers: number },
  extra: { nodeArgs: string[]; env: Record<string, string> },
): Promise<Target> {
  const dataDir = scratchDir(`recording-${store}-${side}`);
  const postgres = store === 'postgres' ? await createPostgresDatabase() : undefined;
  const env: Record<string, string> = {
    ...extra.env,
    RATE_LIMIT_PER_MINUTE,
    USAGE_RECORDING: side,
    DEMO_SHOP_ORDERS: '200', // the demo's own data is not called here: a quick first start
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  const database: Config['database'] = postgres
    ? { kind: 'postgres', url: postgres.url, poolMax: 2 }
    : { kind: 'sqlite', file: join(dataDir, 'datalab.sqlite') };
  const start = () =>
    startDataLab({ dataDir, logLevel: 'info', stdout: join(dataDir, 'server.log'), env, nodeArgs: extra.nodeArgs });
  let server = await start();
  const { collectionUid, uids } = await createQ100Assets(server, pg, counts.assets);
  await stop(server.child);
  const secrets = await addCallers(database, collectionUid, counts.callers);
  server = await start();
  const target: Target = { side, server, dataDir, env, database, assets: uids, secrets, adminToken: '' };
  if (postgres) target.drop = postgres.drop;
  return target;
}
