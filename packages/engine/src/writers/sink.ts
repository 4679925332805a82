import type { Writable } from 'node:stream';
import { inMemory, type Row, type RowSource } from '../types.ts';

// Text goes to the Writable in ~64 KiB chunks; a full Writable is awaited ('drain'), so a slow client slows the
// cursor instead of filling memory.

const CHUNK = 64 * 1024;

export class Sink {
  readonly #out: Writable;
  #parts: string[] = [];
  #pending = 0;
  bytes = 0;

  constructor(out: Writable) {
    this.#out = out;
  }

  /** Adds text; true once a chunk's worth is pending: then flush() (and await it) before adding more. */
  add(text: string): boolean {
    this.#parts.push(text);
    this.#pending += text.length;
    return this.#pending >= CHUNK;
  }

  /** Adds text; flushes (and waits for the Writable) once a chunk's worth is pending. */
  async push(text: string): Promise<void> {
    if (this.add(text)) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const chunk = Buffer.from(this.#parts.join(''), 'utf8');
    this.#parts = [];
    this.#pending = 0;
    this.bytes += chunk.length;
    await writeWithBackpressure(this.#out, chunk);
  }
}

export function writeWithBackpressure(out: Writable, chunk: Buffer | string): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error('The output was closed'));
  if (out.write(chunk)) return Promise.resolve();
  return waitForDrain(out);
}

export function waitForDrain(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (error: Error) => done(error);
    const onClose = () => done(new Error('The output was closed'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/** A cell as JSON text can carry it: bytes as base64, bigints as text. */
export function jsonCell(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}

export interface WriteOptions {
  /** Stop after this many rows. JSON then says truncated: true. */
  maxRows: number;
  /** JSON only: reported as is. */
  cached?: boolean;
  /** JSON only: when the run started (performance.now()), for durationMs. */
  startedAt?: number;
  /** JSON only: members added after `cached` (`,"name":value…`), asked for once the rows are written. */
  extra?: () => string;
  /** XLSX only: the worksheet name. */
  sheetName?: string;
  /**
   * JSON and NDJSON: 'own' (the default) writes rows held in memory with JsonBytes' own encoding; 'stringify' writes
   * every row with JSON.stringify, the library path the own encoding is held to (writers-oracle.test.ts).
   */
  jsonRows?: 'own' | 'stringify';
  /**
   * XLSX only: writes the workbook instead of xlsx.ts and zip.ts — the oracle test injects one made with exceljs, the
   * library the own writer replaces (writers-oracle.test.ts).
   */
  xlsxWriter?: (result: RowSource, out: Writable, options: WriteOptions) => Promise<WriteStats>;
}

export interface WriteStats {
  rows: number;
  bytes: number;
  truncated: boolean;
}

/** Iterates at most maxRows rows and tells whether more were there; closes the source either way. */
export async function* capped(
  rows: AsyncIterable<Row>,
  maxRows: number,
  state: { truncated: boolean },
): AsyncGenerator<Row> {
  const iterator = rows[Symbol.asyncIterator]();
  let count = 0;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      if (count >= maxRows) {
        state.truncated = true;
        return;
      }
      count += 1;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * Writes at most maxRows rows, each as `text(row, index)`, and tells whether more were there; answers how many were
 * written. Rows in memory are written without a promise per row (only a full chunk waits for the Writable).
 */
export async function writeRowTexts(
  sink: Sink,
  rows: AsyncIterable<Row>,
  maxRows: number,
  state: { truncated: boolean },
  text: (row: Row, index: number) => string,
): Promise<number> {
  const all = inMemory(rows);
  if (all) {
    const count = Math.min(all.length, maxRows);
    state.truncated = all.length > maxRows;
    for (let i = 0; i < count; i += 1) if (sink.add(text(all[i]!, i))) await sink.flush();
    return count;
  }
  let count = 0;
  for await (const row of capped(rows, maxRows, state)) {
    if (sink.add(text(row, count))) await sink.flush();
    count += 1;
  }
  return count;
}
