import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_MAX_BYTES, pgTarget, primeCache } from './calling-layer.ts';
import { summarizeProfile, type CpuProfile } from './lib/cpu-profile.ts';
import { createAssets, ensureOrders } from './lib/calling-setup.ts';
import { adminToken, startDataLab } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { randomLoad } from './lib/random-load.ts';
import { print, printTable } from './lib/stats.ts';
import { ROWS_PAGES, createWebApiAssets, startUpstream } from './web-api-setup.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Investigation, not a target: where the server's CPU goes under Q100 through the calling layer with the cache
// off (`--asset=cache-on` for the cached one, `--asset=web-api` for the 100-row Web API asset of bench web-api). Same set-up as calling-layer, server run with --cpu-prof; only the
// samples of the measured window are summarised.

async function run(options: BenchOptions): Promise<BenchResult> {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 5, 600);
  const target = pgTarget(options);
  ensureOrders(target);
  const workDir = scratchDir('calling-profile');
  const profileDir = join(workDir, 'profile');
  const server = await startDataLab({
    dataDir: join(workDir, 'data'),
    logLevel: 'info',
    stdout: join(workDir, 'server.log'),
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    // One caller under load: lift the per-caller limit; the cache holds every id's result (as in calling-layer).
    env: { RATE_LIMIT_PER_MINUTE: '1000000', CACHE_MAX_BYTES: String(CACHE_MAX_BYTES) },
  });
  const webApi = options['asset'] === 'web-api';
  // The Web API asset of bench web-api: 100 rows of a local upstream, a random page per request.
  const upstream = webApi ? await startUpstream(1000) : undefined;
  try {
    let url: string;
    if (upstream) {
      const assets = await createWebApiAssets(server, upstream, { upstreamConnections: 10, exportRows: 1000 });
      url = `${server.baseUrl}/data/v1/${assets.rows}?page={id}`;
    } else {
      const assets = await createAssets(server, target, 3600);
      const uid = options['asset'] === 'cache-on' ? assets.cacheOn : assets.cacheOff;
      url = `${server.baseUrl}/data/v1/${uid}?customer_id={id}`;
    }
    const load = {
      url,
      maxId: upstream ? ROWS_PAGES : 10_000,
      serverPid: server.pid,
      headers: { authorization: `Bearer ${await adminToken(server)}` },
      connections,
    };
    // The cached asset is profiled warm, every id in the cache (as calling-layer measures it).
    if (options['asset'] === 'cache-on') await primeCache(url, load.headers, load.maxId);
    await randomLoad({ ...load, label: 'warm-up', seconds: 2 });
    const startMicros = Number(process.hrtime.bigint() / 1000n);
    const measured = await randomLoad({ ...load, label: 'profiled', seconds });
    const window: [number, number] = [startMicros, Number(process.hrtime.bigint() / 1000n)];
    await stop(server.child);
    const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no .cpuprofile (did it exit gracefully?)');
    const profileText = readFileSync(join(profileDir, file), 'utf8');
    // `--keep-profile=<file>`: the raw profile, for Chromium's DevTools or a closer look.
    if (options['keep-profile']) writeFileSync(options['keep-profile'], profileText);
    const summary = summarizeProfile(JSON.parse(profileText) as CpuProfile, window);
    print(`\nProfiled ${seconds} s: ${measured.requestsPerSecond} req/s, ${measured.serverCpuMsPerRequest} CPU ms/req`);
    print(`samples in the window: ${summary.sampledMs} ms, of which idle ${summary.idleMs} ms`);
    const table = (title: string, rows: typeof summary.topFunctions) =>
      printTable(
        title,
        ['name', 'ms', '% of busy'],
        rows.map((row) => [row.name, row.ms, row.percent]),
      );
    table('Top self time by function', summary.topFunctions);
    table('Self time by owner', summary.selfByOwner);
    table('Inclusive time by function (named functions only)', summary.inclusiveFunctions);
    return {
      name: 'calling-profile',
      verdicts: [],
      notes: [
        webApi
          ? 'Profile of the 100-row Web API asset through the calling layer.'
          : 'Profile of Q100 through the calling layer.',
      ],
      data: { measured, summary },
    };
  } finally {
    await stop(server.child);
    if (upstream) await stop(upstream.child);
    removeScratchDir(workDir);
  }
}

export const callingProfile: Bench = { name: 'calling-profile', onlyWhenNamed: true, run };
