import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { WriteStats } from '@datalab/engine/writers/index';

// A job's file: written to `<id>.a<attempt>.<ext>.part`, flushed to disk (fsync), then renamed to `<id>.<ext>` once
// the attempt still holds the job, so the file appears complete or not at all, on a local disk or a shared volume.
// Each attempt writes its own part file: an attempt that was taken over (its process hung past the heartbeat's
// limit) never touches the file of the attempt that replaced it. A failed write removes the part file.

/** The message of a job whose file could not be written (a full disk, a lost volume, the size limit). */
export const WRITE_FAILED = 'The file could not be written';
export const tooLarge = (limit: number) => `The file exceeds the download size limit of ${limit} bytes`;

/** A write refused on purpose: its message is safe to show. */
export class FileLimitError extends Error {}

export const filePath = (dir: string, id: string, format: string) => join(dir, `${id}.${format}`);
const partPath = (dir: string, id: string, format: string, attempt: number) =>
  join(dir, `${id}.a${attempt}.${format}.part`);

/** Thrown when an attempt finds, before its file appears, that another attempt holds the job now. */
export class SupersededError extends Error {
  constructor() {
    super('the job was taken over by another attempt');
  }
}

/** Which attempt of which job a file belongs to, and how to ask whether that attempt still holds the job. */
export interface JobFileOwner {
  id: string;
  attempt: number;
  /** Asked once the part file is whole and again before it is renamed: false discards it (SupersededError). */
  stillHolds: () => Promise<boolean>;
}

/**
 * A Writable onto the part file that refuses to grow past `maxBytes` (0: no limit). It never emits 'error': a
 * failure (the limit, or the disk's own error) is kept in `failure` and reported to `onFail`, which aborts the run,
 * and later bytes are dropped. Writers may hold promises on their Writable's 'error' that nobody awaits yet (XLSX
 * does): an error event there would be an unhandled rejection, which ends a Node process.
 */
class PartFile extends Writable {
  readonly #file: Writable;
  readonly #maxBytes: number;
  readonly #onFail: (error: Error) => void;
  failure: Error | undefined;
  bytes = 0;

  constructor(path: string, maxBytes: number, onFail: (error: Error) => void) {
    super({ highWaterMark: 256 * 1024 });
    this.#maxBytes = maxBytes;
    this.#onFail = onFail;
    this.#file = createWriteStream(path, { flags: 'wx' });
    this.#file.on('error', (error) => this.#fail(error));
    this.fileClosed = new Promise((resolve) => this.#file.once('close', () => resolve()));
  }

  /**
   * Settles when the file's descriptor is closed. A failure can come before the file is even open (the limit on the
   * first bytes): removing the part file before then would let the pending open create it again, left behind.
   */
  readonly fileClosed: Promise<void>;

  #fail(error: Error) {
    if (this.failure) return;
    this.failure = error;
    this.#file.destroy();
    this.#onFail(error);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    if (this.failure) return callback();
    this.bytes += chunk.length;
    if (this.#maxBytes > 0 && this.bytes > this.#maxBytes) {
      this.#fail(new FileLimitError(tooLarge(this.#maxBytes)));
      return callback();
    }
    if (this.#file.write(chunk)) callback();
    else this.#file.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void) {
    if (this.failure) return callback();
    this.#file.end();
    finished(this.#file).then(
      () => callback(),
      () => callback(), // the file's 'error' handler has recorded it
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.#file.destroy();
    callback(error);
  }
}

/**
 * Runs `write` into the job's part file, then fsyncs and renames it; answers the writer's stats and the size. On
 * any failure the part file is removed and the error rethrown (the file's own failure first: a FileLimitError keeps
 * its message). A failed file write aborts the run through the signal `write` is given, freeing its connection.
 */
export async function writeJobFile(
  dir: string,
  owner: JobFileOwner,
  format: string,
  maxBytes: number,
  signal: AbortSignal,
  write: (out: Writable, signal: AbortSignal) => Promise<WriteStats>,
): Promise<WriteStats & { size: number }> {
  const { id, attempt } = owner;
  const part = partPath(dir, id, format, attempt);
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  let out: PartFile | undefined;
  try {
    await mkdir(dir, { recursive: true });
    // Part files of earlier attempts (and one of this attempt's number, left by a crash) are leftovers: this attempt
    // exists because they were deemed dead (a hung one that wakes finds its file gone and the job no longer its own).
    for (let earlier = 1; earlier <= attempt; earlier += 1)
      await rm(partPath(dir, id, format, earlier), { force: true });
    const file = new PartFile(part, maxBytes, (error) => controller.abort(error));
    out = file;
    const stats = await write(file, controller.signal);
    if (!file.writableFinished) await finished(file);
    if (file.failure) throw file.failure;
    if (!(await owner.stillHolds())) throw new SupersededError();
    const handle = await open(part, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const size = (await stat(part)).size;
    if (!(await owner.stillHolds())) throw new SupersededError();
    await rename(part, filePath(dir, id, format));
    return { ...stats, size };
  } catch (error) {
    out?.destroy();
    if (out) await Promise.race([out.fileClosed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    await rm(part, { force: true }).catch(() => undefined);
    throw out?.failure ?? error;
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

export function openJobFile(dir: string, id: string, format: string) {
  return createReadStream(filePath(dir, id, format));
}

/** The finished file of a job (part files of jobs no longer active go with the sweeper's removeOrphanParts). */
export async function removeJobFile(dir: string, id: string, format: string): Promise<void> {
  await rm(filePath(dir, id, format), { force: true });
}

/** Part files of jobs that are not active (their process died mid-write): removed by the sweeper. */
export async function removeOrphanParts(dir: string, activeIds: ReadonlySet<string>): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const id = name.slice(0, name.indexOf('.'));
    if (activeIds.has(id)) continue;
    await rm(join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Counts CSV records as they pass (line ends outside quotes, less the header): the COPY fast path hands over bytes,
 * not rows, so a CSV job's progress and total come from here.
 */
export class CsvRecordCounter extends Writable {
  readonly #out: Writable;
  #inQuotes = false;
  #lines = 0;

  constructor(out: Writable) {
    super({ highWaterMark: 64 * 1024 });
    this.#out = out;
    out.on('error', (error) => this.destroy(error));
  }

  get rows(): number {
    return Math.max(0, this.#lines - 1);
  }

  /** Line ends outside quotes, found with indexOf (native) rather than a byte loop: a 1M-row file is ~100 MB. */
  #count(chunk: Buffer) {
    const end = chunk.length;
    let at = 0;
    while (at < end) {
      if (this.#inQuotes) {
        const close = chunk.indexOf(QUOTE, at);
        if (close < 0) return;
        this.#inQuotes = false;
        at = close + 1;
        continue;
      }
      const open = chunk.indexOf(QUOTE, at);
      const stop = open < 0 ? end : open;
      for (let lf = chunk.indexOf(LF, at); lf >= 0 && lf < stop; lf = chunk.indexOf(LF, lf + 1)) this.#lines += 1;
      if (open < 0) return;
      // An escaped quote ("") closes and opens again: the same as toggling twice.
      this.#inQuotes = true;
      at = open + 1;
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.#count(chunk);
    if (this.#out.write(chunk)) callback();
    else this.#out.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void) {
    this.#out.end();
    finished(this.#out).then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.#out.destroy(error ?? undefined);
    callback(error);
  }
}
