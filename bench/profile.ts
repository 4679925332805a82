import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeProfile, type CpuProfile } from './lib/cpu-profile.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { load } from './lib/load.ts';
import { pinToCpu, removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { print, printTable } from './lib/stats.ts';
import { intOption, logLevelOption } from './lib/options.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Investigation, not a target: where the server's CPU goes under the current-user load. Runs the
// server with --cpu-prof, loads GetCurrentUser, stops it gracefully (which writes the profile) and
// summarises only the samples taken during the measured load.

async function run(options: BenchOptions): Promise<BenchResult> {
  const connections = intOption(options, 'connections', 50, 1000);
  const seconds = intOption(options, 'duration', 5, 600);
  const logLevel = logLevelOption(options);
  const workDir = scratchDir('profile');
  const profileDir = join(workDir, 'profile');
  const keepProfile = options['keep-profile'];
  let server: DataLabServer | undefined;
  try {
    server = await startDataLab({
      dataDir: join(workDir, 'data'),
      logLevel,
      stdout: join(workDir, 'server-stdout.log'),
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    });
    // As current-user runs it: the server on CPU 0, the load generator (this process) on CPU 1.
    pinToCpu(server.pid, 0);
    pinToCpu(process.pid, 1);
    const target = {
      url: `${server.baseUrl}/api/Account/GetCurrentUser`,
      serverPid: server.pid,
      headers: { authorization: `Bearer ${await adminToken(server)}` },
      connections,
    };
    await load({ ...target, label: 'warm-up', seconds: 2 });
    const measured = await load({ ...target, label: 'profiled', seconds });
    await stop(server.child);
    const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no .cpuprofile (did it exit gracefully?)');
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
    const summary = summarizeProfile(profile, measured.windowMicros);

    print(
      `\nProfiled ${seconds} s at ${connections} connections, LOG_LEVEL=${logLevel}: ${measured.requestsPerSecond} req/s, ${measured.serverCpuMsPerRequest} CPU ms/req`,
    );
    print(`samples in the window: ${summary.sampledMs} ms, of which idle ${summary.idleMs} ms`);
    const table = (title: string, rows: typeof summary.topFunctions) =>
      printTable(
        title,
        ['name', 'ms', '% of busy'],
        rows.map((row) => [row.name, row.ms, row.percent]),
      );
    table('Top self time by function', summary.topFunctions);
    table('Self time by owner', summary.selfByOwner);
    table('Inclusive time by owner (owner anywhere on the stack)', summary.inclusiveByOwner);
    table('Inclusive time by function (named functions only)', summary.inclusiveFunctions);
    if (keepProfile) {
      const kept = join(process.cwd(), keepProfile);
      copyFileSync(join(profileDir, file), kept);
      print(`profile kept at ${kept} (open in Chrome DevTools → Performance)`);
    }
    return {
      name: 'profile',
      verdicts: [],
      notes: [
        `Profile of GetCurrentUser under load (LOG_LEVEL=${logLevel}); see the tables printed above or the JSON.`,
      ],
      data: { logLevel, connections, seconds, load: measured, summary },
    };
  } finally {
    pinToCpu(process.pid, 'own');
    if (server) await stop(server.child);
    removeScratchDir(workDir);
  }
}

export const profile: Bench = { name: 'profile', onlyWhenNamed: true, run };
