import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import type { Writable } from 'node:stream';
import { waitForDrain, writeWithBackpressure } from './sink.ts';

// Target, oracle and switch: those of xlsx.ts (the workbook exceljs reads back; WriteOptions.xlsxWriter).
//
// A streaming ZIP writer for the XLSX writer: small parts are deflated at once, a large part (the sheet) is deflated
// as it is produced, its sizes and CRC following it in a data descriptor, so nothing but a deflate window and one
// chunk is held whatever the file's size. Every write waits for the Writable (backpressure). Sizes or offsets past
// 4 GiB get ZIP64 records (a streamed entry's descriptor then carries 8-byte sizes, as readers expect when the
// central directory's entry has a ZIP64 extra field).

const MAX32 = 0xffffffff;
const DEFLATE = 8;
/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: names are UTF-8. */
const FLAGS_STREAMED = 0x0808;
const FLAGS_KNOWN = 0x0800;
const VERSION = 45; // 4.5: ZIP64

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** DOS date and time of a Date (local fields, as ZIP readers show them). */
function dosTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

export class ZipWriter {
  readonly #out: Writable;
  readonly #entries: Entry[] = [];
  readonly #stamp = dosTime(new Date());
  readonly #level: number;
  #offset = 0;

  constructor(out: Writable, level = 1) {
    this.#out = out;
    this.#level = level;
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.#offset;
  }

  async #write(chunk: Buffer): Promise<void> {
    this.#offset += chunk.length;
    await writeWithBackpressure(this.#out, chunk);
  }

  #localHeader(entry: Entry): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(entry.flags, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.#stamp.time, 10);
    header.writeUInt16LE(this.#stamp.date, 12);
    // A streamed entry's CRC and sizes are zero here and follow the data (bit 3).
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(0, 28);
    return Buffer.concat([header, entry.name]);
  }

  /** A small part, deflated in one go (its sizes are known, so they go in the local header). */
  async addFile(name: string, text: string): Promise<void> {
    const data = Buffer.from(text, 'utf8');
    const deflated = deflateRawSync(data, { level: this.#level });
    if (this.#offset > MAX32) throw new Error('A ZIP part that is not streamed must start in the first 4 GiB');
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      flags: FLAGS_KNOWN,
      crc: crc32(data),
      compressed: deflated.length,
      size: data.length,
      offset: this.#offset,
    };
    this.#entries.push(entry);
    await this.#write(this.#localHeader(entry));
    await this.#write(deflated);
  }

  /**
   * A part written as it is produced: `produce` calls `write` with each piece (a Buffer) and awaits it; the deflated
   * bytes go to the Writable as they come, with its backpressure carried back to `write`. `write` resolves once
   * deflate has consumed the piece, so its buffer may then be filled again.
   */
  async addStream(name: string, produce: (write: (data: Buffer) => Promise<void>) => Promise<void>): Promise<void> {
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      flags: FLAGS_STREAMED,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.#offset,
    };
    this.#entries.push(entry);
    await this.#write(this.#localHeader(entry));
    const deflate = createDeflateRaw({ level: this.#level });
    let failed: Error | undefined;
    const failure = new Promise<never>((_resolve, reject) => {
      deflate.once('error', (error) => reject((failed = error)));
      this.#out.once('error', (error) => reject((failed = error)));
    });
    failure.catch(() => undefined);
    // Deflated bytes go straight to the Writable; while it is full, deflate pauses (and so does `write` below).
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.#offset += chunk.length;
      if (!this.#out.write(chunk)) {
        deflate.pause();
        waitForDrain(this.#out).then(
          () => deflate.resume(),
          () => undefined, // reported through 'error' / the next write
        );
      }
    });
    const ended = new Promise<void>((resolve) => deflate.once('end', resolve));
    const write = async (data: Buffer): Promise<void> => {
      if (failed) throw failed;
      if (this.#out.destroyed) throw new Error('The output was closed');
      entry.crc = crc32(data, entry.crc);
      entry.size += data.length;
      // Deflate calls back once it has read the piece (after any 'drain'): its backpressure is carried by this wait.
      const consumed = new Promise<void>((resolve) => deflate.write(data, () => resolve()));
      await Promise.race([consumed, failure]);
    };
    try {
      await produce(write);
      deflate.end();
      await Promise.race([ended, failure]);
    } finally {
      if (!deflate.writableFinished) deflate.destroy();
    }
    const zip64 = entry.size > MAX32 || entry.compressed > MAX32;
    const descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(entry.compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
    } else {
      descriptor.writeUInt32LE(entry.compressed, 8);
      descriptor.writeUInt32LE(entry.size, 12);
    }
    await this.#write(descriptor);
  }

  /** The central directory and its end records; the Writable is not ended. */
  async finish(): Promise<void> {
    const start = this.#offset;
    const records: Buffer[] = [];
    for (const entry of this.#entries) {
      const big = [entry.size, entry.compressed, entry.offset].map((value) => value > MAX32);
      const extra = big.some(Boolean) ? zip64Extra(entry, big) : Buffer.alloc(0);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(VERSION, 4);
      record.writeUInt16LE(VERSION, 6);
      record.writeUInt16LE(entry.flags, 8);
      record.writeUInt16LE(DEFLATE, 10);
      record.writeUInt16LE(this.#stamp.time, 12);
      record.writeUInt16LE(this.#stamp.date, 14);
      record.writeUInt32LE(entry.crc >>> 0, 16);
      record.writeUInt32LE(big[1] ? MAX32 : entry.compressed, 20);
      record.writeUInt32LE(big[0] ? MAX32 : entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt16LE(extra.length, 30);
      record.writeUInt32LE(big[2] ? MAX32 : entry.offset, 42);
      records.push(record, entry.name, extra);
    }
    const directory = Buffer.concat(records);
    await this.#write(directory);
    const end = this.#offset;
    const count = this.#entries.length;
    if (start > MAX32 || directory.length > MAX32) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(VERSION, 12);
      record.writeUInt16LE(VERSION, 14);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(directory.length), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(end), 8);
      locator.writeUInt32LE(1, 16);
      await this.#write(Buffer.concat([record, locator]));
    }
    const last = Buffer.alloc(22);
    last.writeUInt32LE(0x06054b50, 0);
    last.writeUInt16LE(count, 8);
    last.writeUInt16LE(count, 10);
    last.writeUInt32LE(Math.min(directory.length, MAX32), 12);
    last.writeUInt32LE(start > MAX32 ? MAX32 : start, 16);
    await this.#write(last);
  }
}

/** The ZIP64 extended information field: the values that did not fit, in the order the format fixes. */
function zip64Extra(entry: Entry, big: boolean[]): Buffer {
  const values = [entry.size, entry.compressed, entry.offset].filter((_value, index) => big[index]);
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  values.forEach((value, index) => extra.writeBigUInt64LE(BigInt(value), 4 + index * 8));
  return extra;
}
