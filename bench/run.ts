import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { accessModel } from './access-model.ts';
import { appLogs } from './app-logs.ts';
import { bundleSize } from './bundle-size.ts';
import { callingLayer } from './calling-layer.ts';
import { callingProfile } from './calling-profile.ts';
import { currentUser } from './current-user.ts';
import { definitions } from './definitions.ts';
import { downloads } from './downloads.ts';
import { grid } from './grid.ts';
import { mcp } from './mcp.ts';
import { profile } from './profile.ts';
import { recording } from './recording.ts';
import { reporting } from './reporting.ts';
import { startup } from './startup.ts';
import { steps } from './steps.ts';
import { tokens } from './tokens.ts';
import { webApi } from './web-api.ts';
import { print } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// `npm run bench` runs every target benchmark in turn; `node bench/run.ts current-user --log-level=warn`
// runs the named ones with options. Raw results go to bench/out/<date-time>.json, a Markdown summary
// to stdout. Exits non-zero when a benchmark errors or misses its target.

const BENCHES: Bench[] = [
  startup,
  bundleSize,
  currentUser,
  accessModel,
  callingLayer,
  grid,
  webApi,
  tokens,
  mcp,
  definitions,
  appLogs,
  reporting,
  recording,
  downloads,
  profile,
  steps,
  callingProfile,
];

function parseArgs(argv: string[]): { names: string[]; options: BenchOptions } {
  const names: string[] = [];
  const options: BenchOptions = {};
  for (const arg of argv) {
    const flag = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (flag) options[flag[1]!] = flag[2] ?? 'true';
    else names.push(arg);
  }
  return { names, options };
}

/** Read at the start: a bench may pin this process to one CPU, and availableParallelism() then says 1. */
const CORES = availableParallelism();

const machine = () => ({
  cores: CORES,
  cpu: cpus()[0]?.model,
  memoryGB: Math.round(totalmem() / 1e9),
  kernel: release(),
  node: process.version,
});

function markdown(results: BenchResult[], startedAt: Date): string {
  const m = machine();
  const verdict = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : '**FAIL**');
  const lines = [
    `## Benchmarks ${startedAt.toISOString()}`,
    '',
    `${m.cores} cores (${m.cpu}), ${m.memoryGB} GB, kernel ${m.kernel}, Node ${m.node}. Load generator and servers share the machine (current-user pins them to a core each).`,
    '',
    '| bench | target | measured | result |',
    '|---|---|---|---|',
    ...results.flatMap((r) =>
      r.verdicts.map((v) => `| ${r.name} | ${v.target} | ${v.measured} | ${verdict(v.pass)} |`),
    ),
    '',
    ...results.flatMap((r) => r.notes.map((note) => `- ${r.name}: ${note}`)),
  ];
  return lines.join('\n');
}

async function main() {
  const { names, options } = parseArgs(process.argv.slice(2));
  const unknown = names.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark ${unknown.join(', ')}. Available: ${BENCHES.map((b) => b.name).join(', ')}`);
    process.exit(2);
  }
  const selected =
    names.length > 0 ? BENCHES.filter((b) => names.includes(b.name)) : BENCHES.filter((b) => !b.onlyWhenNamed);
  const startedAt = new Date();
  const results: BenchResult[] = [];
  for (const bench of selected) {
    print(`\n=== ${bench.name} ===`);
    try {
      results.push(await bench.run(options));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`${bench.name} failed: ${message}`);
      results.push({
        name: bench.name,
        verdicts: [{ target: '–', measured: `error: ${message.split('\n')[0]}`, pass: false }],
        notes: [message],
        data: null,
      });
    }
  }

  const outDir = join(import.meta.dirname, 'out');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `${startedAt.toISOString().replace(/:/g, '-').slice(0, 19)}.json`);
  writeFileSync(outFile, `${JSON.stringify({ startedAt, machine: machine(), options, results }, null, 2)}\n`);
  print(`\n${markdown(results, startedAt)}\n\nRaw results: ${outFile}`);
  process.exitCode = results.some((r) => r.verdicts.some((v) => v.pass === false)) ? 1 : 0;
}

await main();
