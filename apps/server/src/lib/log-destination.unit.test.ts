import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedDestination } from './log-destination.ts';

describe('BatchedDestination', () => {
  const writes: string[] = [];
  let destination: BatchedDestination | undefined;
  const make = () => {
    destination = new BatchedDestination({ write: (chunk: Buffer) => writes.push(chunk.toString()) });
    return destination;
  };
  afterEach(() => {
    destination?.close();
    writes.length = 0;
  });

  it('writes many lines in few writes, in order, nothing lost', () => {
    const batched = make();
    const lines = Array.from({ length: 1000 }, (_, index) => `{"n":${index},"msg":"${'x'.repeat(100)}"}\n`);
    for (const line of lines) batched.write(line);
    batched.flush();
    expect(writes.join('')).toBe(lines.join(''));
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.length).toBeLessThan(20);
  });

  it('never reuses a buffer that a stream still holds, and writes an overlong line whole', () => {
    const held: Buffer[] = [];
    // A stream behind a full pipe: it keeps every buffer it is given, queued.
    destination = new BatchedDestination({ write: (chunk: Buffer) => held.push(chunk), writableLength: 1 });
    destination.write('first é\n');
    destination.flush();
    destination.write('second\n');
    destination.flush();
    const long = `${'x'.repeat(20_000)}\n`;
    destination.write(long);
    expect(held.map(String)).toEqual(['first é\n', 'second\n', long]);
  });

  it('writes a lone line within a moment, without a flush', async () => {
    const batched = make();
    batched.write('one\n');
    expect(writes).toEqual([]);
    await sleep(200);
    expect(writes).toEqual(['one\n']);
  });

  it('writes what is pending when the app closes, and later lines at once', () => {
    const batched = make();
    batched.write('before\n');
    batched.close();
    expect(writes).toEqual(['before\n']);
    batched.write('after\n');
    expect(writes).toEqual(['before\n', 'after\n']);
  });

  it('answers pino’s flush callback after writing', () => {
    const batched = make();
    batched.write('pending\n');
    let written: string[] = [];
    batched.flush(() => {
      written = [...writes];
    });
    expect(written).toEqual(['pending\n']);
  });
});
