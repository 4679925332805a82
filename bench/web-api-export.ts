import { adminToken, type DataLabServer } from './lib/datalab.ts';
import { memoryMB, timeExport, type ExportRun } from './lib/exports.ts';
import { stop } from './lib/processes.ts';
import { max, median, print, printTable, round } from './lib/stats.ts';
import type { Verdict } from './lib/types.ts';
import { EXPORT_PAGE_ROWS, UPSTREAM_KEY, upstreamCounts, type Upstream } from './web-api-setup.ts';

// "100,000 rows paged from the upstream stream to CSV with server RSS under 200 MB". Each export on a
// freshly started server (so its VmHWM is that export's peak), timed by curl to /dev/null while the server's RSS is
// sampled (bench/lib/exports.ts); the upstream's count says every page was fetched. For scale: the same pages read
// back to back by the bench straight from the upstream, no Data Lab in between.

const TARGET_RSS_MB = 200;

export interface WebApiExportRun extends ExportRun {
  /** Pages the upstream served during the export. */
  pages: number;
  /** The server's peak RSS before the export (start-up, sign-in): the export's own peak shows only above it. */
  vmHwmBeforeMB: number;
}

export interface ExportData {
  exportRows: number;
  expectedPages: number;
  /** Seconds to read every page straight from the upstream (one after another, bodies discarded). */
  upstreamAloneSeconds: number;
  runs: WebApiExportRun[];
  /** CSV lines of one export read whole by the bench (header + rows), on the first server: the rows all arrive. */
  checkedLines?: number;
}

/** Every page of /v1/export followed through its `next` links, as fast as the upstream serves them. */
async function upstreamAlone(upstream: Upstream): Promise<number> {
  const started = performance.now();
  let next: string | undefined = '/v1/export?page=1';
  while (next) {
    const response = await fetch(`${upstream.origin}${next}`, { headers: { 'x-api-key': UPSTREAM_KEY } });
    next = ((await response.json()) as { next?: string }).next;
  }
  return round((performance.now() - started) / 1000, 3);
}

/** The export read whole (outside any timing): its CSV lines, to know every row arrives. */
export async function countExportLines(server: DataLabServer, uid: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/data/v1/${uid}?format=csv`, {
    headers: { authorization: `Bearer ${await adminToken(server)}` },
  });
  if (response.status !== 200) throw new Error(`CSV export check: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text.split('\r\n').filter((line) => line !== '').length;
}

export async function exportPart(
  start: () => Promise<DataLabServer>,
  upstream: Upstream,
  uid: string,
  options: { exportRows: number; runs: number },
): Promise<ExportData> {
  const expectedPages = Math.ceil(options.exportRows / EXPORT_PAGE_ROWS);
  const upstreamAloneSeconds = await upstreamAlone(upstream);
  const runs: WebApiExportRun[] = [];
  for (let index = 1; index <= options.runs; index += 1) {
    const server = await start();
    try {
      const token = await adminToken(server);
      const before = (await upstreamCounts(upstream)).export;
      const vmHwmBeforeMB = memoryMB(server.pid, 'VmHWM');
      const run = await timeExport(`csv #${index}`, `${server.baseUrl}/data/v1/${uid}?format=csv`, token, server.pid);
      const pages = (await upstreamCounts(upstream)).export - before;
      runs.push({ ...run, pages, vmHwmBeforeMB });
      print(
        `  csv #${index}: ${run.status}, ${run.seconds} s, first byte ${run.firstByteMs} ms, ` +
          `${pages} pages, VmHWM ${run.vmHwmMB} MB`,
      );
    } finally {
      await stop(server.child);
    }
  }
  return { exportRows: options.exportRows, expectedPages, upstreamAloneSeconds, runs };
}

export function printExport(data: ExportData): void {
  const rows = data.runs.map((run) => [
    run.label,
    run.status,
    run.seconds,
    run.firstByteMs,
    round(run.bytes / 1e6, 1),
    run.pages,
    run.startRssMB,
    run.sampledPeakRssMB,
    run.vmHwmBeforeMB,
    run.vmHwmMB,
  ]);
  rows.push(['upstream alone', 200, data.upstreamAloneSeconds, '–', '–', data.expectedPages, '–', '–', '–', '–']);
  printTable(
    `CSV export of ${data.exportRows} rows paged from the upstream (${EXPORT_PAGE_ROWS} a page; each on a fresh server)`,
    [
      'export',
      'status',
      's',
      'first byte ms',
      'MB',
      'pages',
      'RSS before MB',
      'RSS peak (sampled) MB',
      'VmHWM before MB',
      'VmHWM MB',
    ],
    rows,
  );
  if (data.checkedLines !== undefined)
    print(`one export read whole: ${data.checkedLines} CSV lines (header + ${data.exportRows} rows expected)`);
}

export function exportVerdict(data: ExportData): Verdict {
  const { runs } = data;
  const complete = runs.every((run) => run.status === 200 && run.pages === data.expectedPages);
  const linesOk = data.checkedLines === undefined || data.checkedLines === data.exportRows + 1;
  const worst = runs.length > 0 ? max(runs.map((run) => run.vmHwmMB)) : Number.NaN;
  return {
    target: `${data.exportRows} rows paged from the upstream to CSV: server RSS < ${TARGET_RSS_MB} MB`,
    measured:
      runs.length === 0
        ? 'not measured'
        : `VmHWM worst ${worst} MB (before the export: RSS ${median(runs.map((run) => run.startRssMB))} MB, ` +
          `VmHWM ${median(runs.map((run) => run.vmHwmBeforeMB))} MB), ` +
          `sampled RSS peak ${max(runs.map((run) => run.sampledPeakRssMB))} MB; ` +
          `${median(runs.map((run) => run.seconds))} s median over ${runs.length} (upstream alone ` +
          `${data.upstreamAloneSeconds} s); pages ${runs.map((run) => run.pages).join('/')} of ${data.expectedPages}` +
          (data.checkedLines === undefined ? '' : `; ${data.checkedLines} CSV lines`),
    pass: runs.length === 0 ? undefined : complete && linesOk && worst < TARGET_RSS_MB,
  };
}
