import { Transform, Writable } from 'node:stream';
import type { RunTimings } from '@datalab/engine';
import type { WriteStats } from '@datalab/engine/writers/index';

// Bytes of results: a JSON reply is collected whole (it stops at the row cap) so it can be cached and so an error
// during the run is still a proper error reply; exports stream, and the reply starts only once their first bytes
// exist, so an error before that is a proper error reply too.

/** The JSON writer's last member; everything before it is the same however often the result is served. */
const TAIL_START = Buffer.from(',"truncated":');

export interface JsonResult {
  /** `{"columns":[...],"rows":[...]` without the closing members. */
  head: Buffer;
  /** The whole reply as the run wrote it (the head and the run's own closing members). */
  body: Buffer;
  /** From the cache: the reply served within half a millisecond (the head and the quick tail). */
  quick?: Buffer;
  rows: number;
  truncated: boolean;
  /** Where the run's time went; none for a result read back from the cache. */
  timings?: RunTimings;
}

/** A Writable that keeps what it is given. */
export class Collector extends Writable {
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.chunks.push(chunk);
    callback();
  }

  /** Everything written, as one buffer (the chunk itself when there was one). */
  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

/**
 * Splits the JSON writer's output into the reusable head and its stats; `extraBytes`: the length of the members the
 * writer added after `cached` (they may hold the tail's text themselves).
 */
export function jsonResult(body: Buffer, stats: WriteStats, timings?: RunTimings, extraBytes = 0): JsonResult {
  const tailAt = body.lastIndexOf(TAIL_START, body.length - 1 - extraBytes);
  if (tailAt < 0) throw new Error('the JSON writer wrote no tail');
  const head = body.subarray(0, tailAt);
  return { head, body, rows: stats.rows, truncated: stats.truncated, ...(timings && { timings }) };
}

/**
 * The closing members of a reply served from the cache within half a millisecond (durationMs rounds to 0): kept after
 * the head, so such a reply is the stored bytes as they are, with no copy to make.
 */
const QUICK_TAIL = Buffer.from(',"truncated":false,"durationMs":0,"cached":true}');

/** The bytes a cache keeps for a result: its row count on a first line, then the head and the quick tail. */
export function cacheValue(result: JsonResult): Buffer {
  return Buffer.concat([Buffer.from(`${result.rows}\n`), result.head, QUICK_TAIL]);
}

const LINE_END = 10;
const ZERO = 48;

/** The result a cache value holds (cached results are never truncated; `body` is not used alone). */
export function fromCacheValue(value: Buffer): JsonResult {
  // The row count, digit by digit: a Buffer search costs more than the handful of digits.
  let rows = 0;
  let at = 0;
  for (; at < value.length && value[at] !== LINE_END; at += 1) rows = rows * 10 + (value[at]! - ZERO);
  // Values stored before the quick tail was kept end with the head.
  const quick = value.length - at - 1 >= QUICK_TAIL.length && value.subarray(-QUICK_TAIL.length).equals(QUICK_TAIL);
  const stored = value.subarray(at + 1);
  const head = quick ? stored.subarray(0, stored.length - QUICK_TAIL.length) : stored;
  return { head, body: head, ...(quick && { quick: stored }), rows, truncated: false };
}

/**
 * The whole reply: the head and this reply's own truncated, durationMs and cached; `extra` adds members of this
 * reply only (the developer view's exchanges: `,"name":value...`). A cached result served within half a millisecond
 * is its stored reply as it is.
 */
export function jsonReply(result: JsonResult, durationMs: number, cached: boolean, extra = ''): Buffer {
  const ms = Math.round(durationMs);
  if (cached && ms === 0 && extra === '' && result.quick) return result.quick;
  const tail = `,"truncated":${result.truncated},"durationMs":${ms},"cached":${cached}${extra}}`;
  return Buffer.concat([result.head, Buffer.from(tail)]);
}

export interface GatedStream {
  /** The reply's body: hand it to reply.send once `ready` resolved. */
  body: Transform;
  /** Resolves when the first bytes exist (or the writer finished); rejects when the writer failed before. */
  ready: Promise<void>;
  /** The writer's outcome. */
  done: Promise<WriteStats>;
}

/**
 * Runs a writer into a pass-through body and tells when the first bytes are there. The body keeps the writer's
 * backpressure (it holds one high-water mark, then the writer waits for the socket); a failure after the first
 * bytes destroys the body, so the client sees a broken response, never a silently truncated file.
 */
export function gatedStream(write: (out: Writable) => Promise<WriteStats>): GatedStream {
  let opened!: () => void;
  const started = new Promise<void>((resolve) => (opened = resolve));
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      opened();
      callback(null, chunk);
    },
    flush(callback) {
      opened();
      callback();
    },
  });
  const done = write(body);
  // Whoever streams awaits `done`; this keeps a failure before the first bytes (reported by `ready`) from also
  // surfacing as an unhandled rejection.
  done.catch(() => undefined);
  const ready = Promise.race([started, done.then(() => undefined)]);
  return { body, ready, done };
}
