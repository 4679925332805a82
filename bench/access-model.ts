import pg from 'pg';
import { fetchClient } from '../apps/server/test/support/http.ts';
import { signIn } from '../apps/server/test/support/sign-in.ts';
import { populateAccessDataset, SIZES } from './lib/access-dataset.ts';
import { startDataLab } from './lib/datalab.ts';
import { load } from './lib/load.ts';
import { removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { print } from './lib/stats.ts';
import type { Bench, BenchResult } from './lib/types.ts';

// The access model's targets on PostgreSQL with the dataset: GetAll for a user in 20 groups, p99 at
// 20 connections ≤ 50 ms; the authorization check of one request ≤ 1 ms at p99, measured inside the
// server (its Server-Timing header) on GetByUid.

const ADMIN_URL = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function withDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const name = `datalab_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await run(url.href);
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/** Server-Timing authz durations from `count` GetByUid calls, `concurrency` at a time. */
async function authorizationTimings(
  baseUrl: string,
  token: string,
  uids: string[],
  count: number,
  concurrency: number,
) {
  const durations: number[] = [];
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const uid = uids[next % uids.length];
      next += 1;
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/DataSourceCollection/GetByUid/${uid}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      const timing = /authz;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
      if (response.status !== 200 || !timing?.[1])
        throw new Error(`GetByUid answered ${response.status} without a timing`);
      durations.push(Number(timing[1]));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { durations, latencies };
}

export const accessModel: Bench = {
  name: 'access-model',
  async run(options): Promise<BenchResult> {
    const seconds = Number(options['seconds'] ?? 10);
    return withDatabase(async (databaseUrl) => {
      const dataDir = scratchDir('access-model');
      const server = await startDataLab({
        dataDir,
        logLevel: options['log-level'] ?? 'warn',
        stdout: '/dev/null',
        env: { DATABASE_URL: databaseUrl },
      });
      try {
        const populateStarted = performance.now();
        await populateAccessDataset(databaseUrl);
        print(
          `dataset: ${SIZES.users} users, ${SIZES.groups} groups (chains of the maximum depth), ${SIZES.collections} collections in ${((performance.now() - populateStarted) / 1000).toFixed(1)} s`,
        );
        const publicUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
        const { access_token: token } = await signIn(fetchClient(), {
          publicUrl,
          username: 'analyst',
          password: 'datalab',
        });
        const headers = { authorization: `Bearer ${token}` };
        const first = await fetch(`${server.baseUrl}/api/DataSourceCollection/GetAll?page=1&pageSize=100`, { headers });
        const page = (await first.json()) as { totalCount: number; items: { uid: string }[] };
        print(`analyst sees ${page.totalCount} collections`);

        const url = `${server.baseUrl}/api/DataSourceCollection/GetAll?page=1&pageSize=20`;
        await load({ label: 'warm-up', url, serverPid: server.pid, headers, connections: 20, seconds: 3 });
        const getAll = await load({ label: 'GetAll', url, serverPid: server.pid, headers, connections: 20, seconds });
        print(
          `GetAll, 20 connections × ${seconds} s: ${getAll.requestsPerSecond} req/s, p50 ${getAll.p50Ms} ms, p99 ${getAll.p99Ms} ms, non-2xx ${getAll.non2xx}`,
        );

        const uids = page.items.map((item) => item.uid);
        await authorizationTimings(server.baseUrl, token, uids, 500, 20);
        const { durations, latencies } = await authorizationTimings(server.baseUrl, token, uids, 5000, 20);
        const authzP50 = percentile(durations, 50);
        const authzP99 = percentile(durations, 99);
        print(
          `authorization check (Server-Timing, ${durations.length} GetByUid): p50 ${authzP50.toFixed(3)} ms, p99 ${authzP99.toFixed(3)} ms; request p99 ${percentile(latencies, 99).toFixed(1)} ms`,
        );

        return {
          name: 'access-model',
          verdicts: [
            {
              target: 'GetAll p99 ≤ 50 ms (user in 20 groups, 20 connections, PostgreSQL)',
              measured: `p99 ${getAll.p99Ms} ms at ${getAll.requestsPerSecond} req/s`,
              pass: getAll.p99Ms <= 50 && getAll.non2xx === 0,
            },
            {
              target: 'authorization check p99 ≤ 1 ms (inside the server)',
              measured: `p99 ${authzP99.toFixed(3)} ms (p50 ${authzP50.toFixed(3)} ms)`,
              pass: authzP99 <= 1,
            },
          ],
          notes: [
            `dataset: ${SIZES.users} users, ${SIZES.groups} groups nested to the maximum depth, ${SIZES.collections} collections; the analyst is in ${SIZES.analystGroups} groups at the bottom of chains and sees ${page.totalCount} collections`,
            `GetAll: ${getAll.serverCpuMsPerRequest} ms server CPU per request; PostgreSQL shares the 2 cores`,
          ],
          data: {
            getAll,
            authorization: {
              p50: authzP50,
              p99: authzP99,
              samples: durations.length,
              requestP99: percentile(latencies, 99),
            },
            visible: page.totalCount,
          },
        };
      } finally {
        await stop(server.child);
        removeScratchDir(dataDir);
      }
    });
  },
};
