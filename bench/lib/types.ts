// The shape every benchmark returns, so run.ts can write the raw JSON and one Markdown summary.

/** Flags from the command line (`--runs=3` → { runs: '3' }), passed through to every benchmark. */
export type BenchOptions = Record<string, string>;

export interface Verdict {
  target: string;
  measured: string;
  /** undefined when the figure could not be measured (the notes say why). */
  pass: boolean | undefined;
}

export interface BenchResult {
  name: string;
  verdicts: Verdict[];
  notes: string[];
  /** Raw figures, written as JSON to bench/out. */
  data: unknown;
}

export interface Bench {
  name: string;
  /** Investigation tools are run only when named, not by `npm run bench`. */
  onlyWhenNamed?: boolean;
  run(options: BenchOptions): Promise<BenchResult>;
}
