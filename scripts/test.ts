import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ROOT } from './web-build.ts';

// `npm test`: every check and every test tier, then one plain summary line ('N passed, N failed, N skipped') counted
// from the runners' own reports, and the failed tests by name. The three checks run together, then Vitest; beside them
// the browser tier gets ready (Chromium, the server bundle, the portal's build), and once Vitest has ended Playwright
// runs in two lanes. Vitest and the browsers are not run at once: Chromium's processes raise their own priority and,
// on a slow two-core machine, starved Vitest's servers until their timing-bound tests failed (decision 173). Checks and
// Vitest write to the terminal; each Playwright lane's output goes to test-results/e2e-<lane>.log as it goes, and the
// browser tier's output is printed whole at its end.

const RESULTS = join(ROOT, 'test-results');
mkdirSync(RESULTS, { recursive: true });
const started = Date.now();

interface Run {
  title: string;
  ok: boolean;
  output: string;
}

/** Runs a command with its output on this terminal. */
function runShown(title: string, command: string, args: string[], env: Record<string, string> = {}): Promise<boolean> {
  process.stdout.write(`\n=== ${title} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Runs a command with its output (stdout and stderr in the order written) kept, and copied to `log` when given. */
function runKept(
  title: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  log?: NodeJS.WritableStream,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '1', ...env } });
    const chunks: Buffer[] = [];
    const keep = (chunk: Buffer) => {
      chunks.push(chunk);
      log?.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve({ title, ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ title, ok: code === 0, output: Buffer.concat(chunks).toString() }));
  });
}

function show(run: Run): void {
  process.stdout.write(`\n=== ${run.title} ===\n${run.output}`);
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** A failed test's place and the first line of its error, repeated in the summary so a log's tail names it. */
interface Failure {
  test: string;
  message: string;
}

/** The first line of a runner's message, without its colours: the summary is plain text. */
const firstLine = (text: string | undefined): string =>
  stripVTControlCharacters(text ?? '')
    .trim()
    .split('\n')[0] ?? '';

function vitestCounts(file: string): Counts & { failures: Failure[] } {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, failures: [{ test: file, message: 'no report' }] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: {
      name: string;
      message?: string;
      status: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  const failures: Failure[] = [];
  for (const result of report.testResults) {
    const where = relative(ROOT, result.name);
    const failed = result.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed)
      failures.push({ test: `${where} › ${test.fullName}`, message: firstLine(test.failureMessages[0]) });
    // A file that failed outside its tests (a hook, an import) has no failed test to name.
    if (failed.length === 0 && result.status === 'failed')
      failures.push({ test: where, message: firstLine(result.message) });
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    failures,
  };
}

interface PlaywrightSuite {
  title: string;
  specs?: { title: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}

function playwrightFailures(suite: PlaywrightSuite, path: string[]): Failure[] {
  const here = [...path, suite.title];
  const failures: Failure[] = [];
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      if (test.status === 'unexpected')
        failures.push({
          test: [...here, spec.title].join(' › '),
          message: firstLine(test.results.at(-1)?.error?.message),
        });
  for (const child of suite.suites ?? []) failures.push(...playwrightFailures(child, here));
  return failures;
}

function playwrightCounts(file: string): Counts & { failures: Failure[] } {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, failures: [{ test: file, message: 'no report' }] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: PlaywrightSuite[];
  };
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped,
    failures: report.suites.flatMap((suite) => playwrightFailures(suite, [])),
  };
}

/**
 * The end-to-end specs run in two lanes at once, each its own Playwright process with its own server, data folder
 * and port, so no spec sees another lane's data. A lane runs its specs one after another, as they share its server's
 * data. The second lane holds the specs named here (about half the browser time: the accessibility scans of every
 * route and a few long walks); every other spec, a new one included, runs in the first. Most of a browser test's
 * time is waiting (pages settling, the usage summaries' flush), which two lanes overlap.
 */
const SECOND_LANE = ['accessibility', 'mcp', 'usage', 'access', 'parameter-sources'].map(
  (name) => `e2e/${name}.spec.ts`,
);

function e2eLanes(): string[][] {
  const specs = readdirSync(join(ROOT, 'e2e'))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => `e2e/${name}`);
  const missing = SECOND_LANE.filter((spec) => !specs.includes(spec));
  if (missing.length > 0) throw new Error(`scripts/test.ts names specs that do not exist: ${missing.join(', ')}`);
  return [specs.filter((spec) => !SECOND_LANE.includes(spec)), SECOND_LANE];
}

const E2E_FIRST_PORT = 8099;
const e2eReport = (lane: number) => join(RESULTS, `e2e-${lane + 1}.json`);

/** One lane's Playwright run: its output kept in test-results/e2e-<lane>.log as it goes. */
async function e2eLane(specs: string[], lane: number, lanes: string[][]): Promise<Run> {
  const log = createWriteStream(join(RESULTS, `e2e-${lane + 1}.log`));
  const run = await runKept(
    `end-to-end tests, lane ${lane + 1} of ${lanes.length} (Playwright, Chromium)`,
    'playwright',
    ['test', '--reporter=list,json', ...specs],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport(lane), E2E_PORT: String(E2E_FIRST_PORT + lane) },
    log,
  );
  await new Promise((resolve) => log.end(resolve));
  return run;
}

/** Chromium, the server bundle and the portal's build, one after the other, then, once `after` settles, the lanes. */
async function browserTier(lanes: string[][], after: Promise<unknown>): Promise<Run[]> {
  const runs: Run[] = [];
  const steps: [string, string, string[]][] = [
    ['Chromium for end-to-end tests', 'node', ['scripts/ensure-chromium.ts']],
    // Before Vitest starts (after the checks): its bundle test and the end-to-end servers then find it built.
    ['the server bundle', 'node', ['scripts/server-build.ts', '--if-stale']],
    ['building the portal for end-to-end tests', 'npm', ['run', 'build', '-w', 'apps/web']],
  ];
  for (const [title, command, args] of steps) {
    const run = await runKept(title, command, args);
    runs.push(run);
    if (!run.ok) return runs;
  }
  await after;
  runs.push(...(await Promise.all(lanes.map(e2eLane))));
  return runs;
}

const vitestReport = join(RESULTS, 'vitest.json');
const skipE2e = process.env['SKIP_E2E'] === '1';
const lanes = skipE2e ? [] : e2eLanes();
// A report left by an earlier run must not be counted as this run's.
for (const report of [vitestReport, ...lanes.map((_, lane) => e2eReport(lane))]) rmSync(report, { force: true });
if (skipE2e) process.stdout.write('\n*** SKIP_E2E=1: the end-to-end tests are NOT run ***\n');
else process.stdout.write('\nThe end-to-end tests run after Vitest; their output follows when they end.\n');
const vitestDone = Promise.withResolvers<void>();
// The browser tier gets ready beside the checks; its lanes wait for Vitest's end.
const browser = skipE2e ? Promise.resolve([]) : browserTier(lanes, vitestDone.promise);

const checks = await Promise.all([
  runKept('typecheck', 'npm', ['run', 'typecheck']),
  runKept('lint', 'npm', ['run', 'lint']),
  runKept('format (Prettier)', 'prettier', ['--check', '--log-level=warn', '.']),
]);
checks.forEach(show);

const vitestOk = await runShown('unit and integration tests (Vitest)', 'vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
vitestDone.resolve();
const browserRuns = await browser;
browserRuns.forEach(show);

const steps = [...checks.map((check) => check.ok), vitestOk, ...browserRuns.map((run) => run.ok)];
const e2e: Counts = { passed: 0, failed: 0, skipped: 0 };
const unit = vitestCounts(vitestReport);
const failures = [...unit.failures];
for (const lane of lanes.keys()) {
  const counts = playwrightCounts(e2eReport(lane));
  e2e.passed += counts.passed;
  e2e.failed += counts.failed;
  e2e.skipped += counts.skipped;
  failures.push(...counts.failures);
}
const total = {
  passed: unit.passed + e2e.passed,
  failed: unit.failed + e2e.failed,
  skipped: unit.skipped + e2e.skipped,
};
const ok = steps.every(Boolean) && total.failed === 0;
process.stdout.write(
  `\nVitest: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped; Playwright: ${e2e.passed} passed, ${e2e.failed} failed, ${e2e.skipped} skipped\n`,
);
if (failures.length > 0) {
  process.stdout.write('Failed:\n');
  for (const failure of failures) process.stdout.write(`  ${failure.test}\n    ${failure.message}\n`);
}
if (!steps.every(Boolean)) process.stdout.write('A check failed (typecheck, lint or a runner): see above.\n');
const seconds = Math.round((Date.now() - started) / 1000);
process.stdout.write(`npm test took ${Math.floor(seconds / 60)} min ${seconds % 60} s\n`);
process.stdout.write(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(ok ? 0 : 1);
