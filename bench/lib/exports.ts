import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { psql, type PgTarget } from './calling-setup.ts';
import { round } from './stats.ts';

// Timing an export to its last byte (curl to /dev/null, in its own process), its first byte, the
// server's resident memory while it runs (sampled every 100 ms) and the kernel's peak (VmHWM); and the floor
// it is compared with, `psql \copy` of the same query to /dev/null.

export interface ExportRun {
  label: string;
  status: number;
  seconds: number;
  firstByteMs: number;
  bytes: number;
  /** RSS of the server just before the export (started, signed in, idle): the export's own cost is the rise. */
  startRssMB: number;
  sampledPeakRssMB: number;
  /** The process's peak RSS since it started (the server is started fresh for each export). */
  vmHwmMB: number;
}

/** VmRSS or VmHWM of a process in MB (1e6 bytes), from /proc/<pid>/status. */
export function memoryMB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  const kB = Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN);
  return round((kB * 1024) / 1e6, 1);
}

/** curl's own timings: a separate process, so the bench's event loop (autocannon) never reads the 90 MB itself. */
function curl(
  url: string,
  token: string,
): Promise<{ status: number; firstByteS: number; totalS: number; bytes: number }> {
  const format = '%{http_code} %{time_starttransfer} %{time_total} %{size_download}';
  const child = spawn('curl', ['-s', '-o', '/dev/null', '-H', `authorization: Bearer ${token}`, '-w', format, url]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const [status, firstByteS, totalS, bytes] = out.trim().split(' ').map(Number);
      if (code !== 0 || status === undefined) reject(new Error(`curl ${url} exited ${code}: ${out}`));
      else resolve({ status, firstByteS: firstByteS ?? Number.NaN, totalS: totalS ?? Number.NaN, bytes: bytes ?? 0 });
    });
  });
}

/** One export timed by curl (to /dev/null, as the peers' export-timer.sh) with the server's memory sampled. */
export async function timeExport(label: string, url: string, token: string, serverPid: number): Promise<ExportRun> {
  const startRssMB = memoryMB(serverPid, 'VmRSS');
  let sampled = startRssMB;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryMB(serverPid, 'VmRSS'));
  }, 100);
  try {
    const timing = await curl(url, token);
    return {
      label,
      status: timing.status,
      seconds: round(timing.totalS, 2),
      firstByteMs: round(timing.firstByteS * 1000, 1),
      bytes: timing.bytes,
      startRssMB,
      sampledPeakRssMB: sampled,
      vmHwmMB: memoryMB(serverPid, 'VmHWM'),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Seconds for `psql \copy (<sql>) to '/dev/null' csv header`: PostgreSQL makes the CSV, psql drops it. */
export function psqlCopySeconds(target: PgTarget, sql: string, to = '/dev/null'): number {
  const started = performance.now();
  psql(target, ['-c', `\\copy (${sql}) to '${to}' csv header`]);
  return round((performance.now() - started) / 1000, 3);
}

/** The psql client's own version, for the record. */
export const psqlVersion = () => spawnSync('psql', ['--version'], { encoding: 'utf8' }).stdout.trim();
