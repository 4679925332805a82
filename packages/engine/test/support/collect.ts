import { Writable } from 'node:stream';

/** Collects an async iterable (tests only). */
export async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/** Collects what is written to a stream, as text. */
export function textSink() {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8') };
}
