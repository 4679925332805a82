import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { psql, type PgTarget } from './calling-setup.ts';
import { round } from './stats.ts';

// Timing an export to its last byte (the body read and dropped, as curl > /dev/null), its first byte, the
// server's resident memory while it runs (sampled every 100 ms) and the kernel's peak (VmHWM); and the floor
// it is compared with, `psql \copy` of the same query to /dev/null.

export interface ExportRun {
  label: string;
  status: number;
  seconds: number;
  firstByteMs: number;
  bytes: number;
  lines: number;
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

export async function timeExport(label: string, url: string, token: string, serverPid: number): Promise<ExportRun> {
  let sampled = memoryMB(serverPid, 'VmRSS');
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryMB(serverPid, 'VmRSS'));
  }, 100);
  try {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    let firstByteMs = Number.NaN;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body ?? []) {
      const bytesOf = chunk as Uint8Array;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += bytesOf.length;
      for (let index = bytesOf.indexOf(10); index !== -1; index = bytesOf.indexOf(10, index + 1)) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      label,
      status: response.status,
      seconds: round(seconds, 2),
      firstByteMs: round(firstByteMs, 1),
      bytes,
      lines,
      sampledPeakRssMB: sampled,
      vmHwmMB: memoryMB(serverPid, 'VmHWM'),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Seconds for `psql \copy (<sql>) to '/dev/null' csv header`: PostgreSQL makes the CSV, psql drops it. */
export function psqlCopySeconds(target: PgTarget, sql: string): number {
  const started = performance.now();
  psql(target, ['-c', `\\copy (${sql}) to '/dev/null' csv header`]);
  return round((performance.now() - started) / 1000, 3);
}

/** The psql client's own version, for the record. */
export const psqlVersion = () => spawnSync('psql', ['--version'], { encoding: 'utf8' }).stdout.trim();
