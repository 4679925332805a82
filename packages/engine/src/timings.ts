import { inMemory, type Row, type RowStream, type RowsInMemory } from './types.ts';

// Where a run's time goes, stage by stage (the calling layer reports it in Server-Timing, the developer view shows
// it). Queue and database until the first rows cost two clock reads a run and are always measured. Splitting each
// later row's time between the database, the transformations and the writer costs a few clock reads a row, so it
// is asked for (`timeRows`) by interactive calls, whose rows stop at the row cap, and left off for exports.

export interface RunTimings {
  /** Waiting for a connection (the connector's gate and pool); undefined when the connector does not report it. */
  queueMs?: number;
  /** In the database: until the first rows; with timeRows, also while the later rows arrive. */
  databaseMs?: number;
  /** Applying the transformations (timeRows only). */
  transformMs?: number;
  /** In the writer, apart from waiting for rows (timeRows only, filled in by writeResult). */
  writeMs?: number;
}

/** Passes rows on, counting each (`onRow`). */
async function* countedRows(rows: AsyncIterable<Row>, onRow: () => void): AsyncGenerator<Row> {
  for await (const row of rows) {
    onRow();
    yield row;
  }
}

/**
 * Passes rows on, counting each and adding the time it took to arrive to `add`; `onEnd` runs once the reading stops.
 * One generator does both: a generator layer more costs more per row than the clock reads.
 */
async function* timedRows(
  rows: AsyncIterable<Row>,
  add: (ms: number) => void,
  onEnd: () => void,
  onRow: () => void,
): AsyncGenerator<Row> {
  let asked = performance.now();
  try {
    for await (const row of rows) {
      add(performance.now() - asked);
      onRow();
      yield row;
      asked = performance.now();
    }
    add(performance.now() - asked);
  } finally {
    onEnd();
  }
}

const nothing = () => undefined;

/** The clock of one run. Create it right before the connector is asked, so validation is not counted as queue. */
export class RunClock {
  readonly timings: RunTimings;
  readonly #timeRows: boolean;
  readonly #askedAt = performance.now();
  #acquiredAt: number | undefined;
  /** Time the reader waited for rows, and the part of it spent waiting for the source (behind rules). */
  #readMs = 0;
  #sourceMs = 0;

  constructor(timings: RunTimings = {}, timeRows = false) {
    this.timings = timings;
    this.#timeRows = timeRows;
  }

  /** The connector's onAcquired: the run holds a connection now. */
  readonly acquired = (): void => {
    this.#acquiredAt ??= performance.now();
  };

  /** The connector answered with its first rows (COPY: its first bytes). */
  firstRows(): void {
    const now = performance.now();
    if (this.#acquiredAt !== undefined) this.timings.queueMs = this.#acquiredAt - this.#askedAt;
    this.timings.databaseMs = now - (this.#acquiredAt ?? this.#askedAt);
  }

  /** The connector's rows as the transformations read them: their wait is database time (timeRows). */
  source(stream: RowStream): RowStream {
    if (!this.#timeRows || inMemory(stream.rows)) return stream;
    return { ...stream, rows: timedRows(stream.rows, (ms) => (this.#sourceMs += ms), nothing, nothing) };
  }

  /**
   * The rows as the reader gets them, each counted by `onRow`. With timeRows, the reader's wait is database time,
   * less what the transformations took between the source and the reader when there are rules (`hasRules`: the
   * source was passed to source()).
   */
  read(rows: AsyncIterable<Row>, hasRules: boolean, onRow: () => void): AsyncIterable<Row> {
    if (!this.#timeRows) return countedRows(rows, onRow);
    const settle = () => {
      const fromSource = hasRules ? this.#sourceMs : this.#readMs;
      this.timings.databaseMs = (this.timings.databaseMs ?? 0) + fromSource;
      this.timings.transformMs = Math.max(0, this.#readMs - fromSource);
    };
    return timedRows(rows, (ms) => (this.#readMs += ms), settle, onRow);
  }

  /**
   * Rows already in memory, all counted at once (`onRows`): there is no more waiting for the database. With
   * timeRows, `transformMs` is what the rules took over them (applied at once).
   */
  readInMemory(rows: RowsInMemory, transformMs: number, onRows: (count: number) => void): RowsInMemory {
    if (this.#timeRows) this.timings.transformMs = transformMs;
    onRows(rows.count);
    return rows;
  }

  get timesRows(): boolean {
    return this.#timeRows;
  }

  /** The writer took `totalMs` in all, waiting for rows included (timeRows). */
  wrote(totalMs: number): void {
    if (this.#timeRows) this.timings.writeMs = Math.max(0, totalMs - this.#readMs);
  }

  /** COPY bytes: the first chunk marks the end of the database's first part. */
  async *firstChunk(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let first = true;
    try {
      for await (const chunk of chunks) {
        if (first) {
          first = false;
          this.firstRows();
        }
        yield chunk;
      }
    } finally {
      if (first) this.firstRows();
    }
  }
}

/** The clock of each run's stats, for writeResult. */
export const runClocks = new WeakMap<object, RunClock>();
