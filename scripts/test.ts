import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWeb, ROOT } from './web-build.ts';

// `npm test`: every check and every test tier, in the order that fails fastest, then one plain
// summary line ('N passed, N failed, N skipped') counted from the runners' own reports.

const RESULTS = join(ROOT, 'test-results');
mkdirSync(RESULTS, { recursive: true });

function run(title: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  process.stdout.write(`\n=== ${title} ===\n`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(file: string): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

function playwrightCounts(file: string): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped,
  };
}

const steps: boolean[] = [];
steps.push(run('typecheck', 'npm', ['run', 'typecheck']));
steps.push(run('lint', 'npm', ['run', 'lint']));
steps.push(run('format (Prettier)', 'prettier', ['--check', '--log-level=warn', '.']));
const vitestReport = join(RESULTS, 'vitest.json');
steps.push(
  run('unit and integration tests (Vitest)', 'vitest', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]),
);

let e2e: Counts = { passed: 0, failed: 0, skipped: 0 };
if (process.env['SKIP_E2E'] === '1') {
  process.stdout.write('\n*** SKIP_E2E=1: the end-to-end tests are NOT run ***\n');
} else {
  steps.push(run('Chromium for end-to-end tests', 'node', ['scripts/ensure-chromium.ts']));
  process.stdout.write('\n=== building the portal for end-to-end tests ===\n');
  buildWeb();
  const e2eReport = join(RESULTS, 'e2e.json');
  steps.push(
    run('end-to-end tests (Playwright, Chromium)', 'playwright', ['test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
    }),
  );
  e2e = playwrightCounts(e2eReport);
}

const unit = vitestCounts(vitestReport);
const total = {
  passed: unit.passed + e2e.passed,
  failed: unit.failed + e2e.failed,
  skipped: unit.skipped + e2e.skipped,
};
const ok = steps.every(Boolean) && total.failed === 0;
process.stdout.write(
  `\nVitest: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped; Playwright: ${e2e.passed} passed, ${e2e.failed} failed, ${e2e.skipped} skipped\n`,
);
if (!steps.every(Boolean)) process.stdout.write('A check failed (typecheck, lint or a runner): see above.\n');
process.stdout.write(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(ok ? 0 : 1);
