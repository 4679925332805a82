import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// Child processes of the benchmarks. Each runs in its own process group (detached), so stopping it
// also stops what it started (`npm start` → sh → node); every group still alive is killed, and every
// scratch directory removed, when the bench process exits, whatever the reason.

const running = new Set<ChildProcess>();
const scratchDirs = new Set<string>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

process.on('exit', () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => process.exit(code)); // runs the exit handler above
}

/** A fresh temp directory (DATA_DIR, logs, profiles), removed by removeScratchDir or at exit. */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `datalab-bench-${name}-`));
  scratchDirs.add(dir);
  return dir;
}

export function removeScratchDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  scratchDirs.delete(dir);
}

export function launch(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM (the server shuts down gracefully, which also writes --cpu-prof files), then SIGKILL. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const inTime = await Promise.race([gone.then(() => true), sleep(graceMs).then(() => false)]);
  if (!inTime) {
    signalGroup(child, 'SIGKILL');
    await gone;
  }
}

/**
 * Polls `url` every `intervalMs` until it answers 200; returns performance.now() at that answer.
 * Gives up when the child exits or after `timeoutMs`.
 */
export async function waitFor200(
  url: string,
  child: ChildProcess,
  timeoutMs = 30_000,
  intervalMs = 20,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exited(child))
      throw new Error(`the process exited (code ${child.exitCode}, signal ${child.signalCode}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux

/** User + system CPU seconds a process has used so far, from /proc (process.cpuUsage sees only itself). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces: utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds the whole machine spent busy (all cores, everything but idle and iowait). */
export function machineBusySeconds(): number {
  const [cpuLine] = readFileSync('/proc/stat', 'utf8').split('\n');
  const ticks = (cpuLine ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return (total - idle) / CLOCK_TICKS_PER_SECOND;
}

/** A process's CPU list as taskset reports it ("0,1", "0-3"). */
function affinityOf(pid: number): string {
  const shown = spawnSync('taskset', ['--cpu-list', '--pid', String(pid)], { encoding: 'utf8' });
  const list = /:\s*(\S+)\s*$/.exec(shown.stdout)?.[1];
  if (shown.status !== 0 || !list)
    throw new Error(`taskset could not read ${pid}'s CPUs: ${shown.stderr || shown.error}`);
  return list;
}

/** The CPUs the bench process may use when it starts, read before it is first pinned. */
let ownCpus: string | undefined;

/**
 * Pins a process, every thread of it, to one CPU (taskset, from util-linux). With the servers on one core and the
 * load generator on the other, neither is moved between cores nor shares one with the other mid-run: on a 2-vCPU VM
 * that keeps a 5-second run's figures within a few per cent of each other instead of tens. `'own'` gives the bench
 * process back the CPUs it started with.
 */
export function pinToCpu(pid: number, cpu: number | 'own'): void {
  if (pid === process.pid) ownCpus ??= affinityOf(pid);
  const list = cpu === 'own' ? (ownCpus ?? affinityOf(pid)) : String(cpu);
  const pinned = spawnSync('taskset', ['--all-tasks', '--cpu-list', '--pid', list, String(pid)], { encoding: 'utf8' });
  if (pinned.status !== 0)
    throw new Error(`taskset could not pin ${pid} to CPU ${list}: ${pinned.stderr || pinned.error}`);
}
