import { timestampText, type CellText } from '../types.ts';

// Target: Q100 cache off ≥ 0.8 × bare Fastify + pg (bench/RESULTS.md, "The calling layer"). Oracle: json-bytes.test.ts
// and writers-oracle.test.ts; switch: WriteOptions.jsonRows 'stringify'.
//
// JSON text written straight into bytes. An interactive call's 100 rows written by JSON.stringify made a string a
// row, then one string of them all, then its UTF-8 copy: about a quarter of what a Q100 call allocated, and the
// garbage collector's time with it. Here short ASCII text is copied char by char into one buffer (checking for what
// JSON escapes on the way); anything else goes through JSON.stringify, so the bytes are always exactly what
// JSON.stringify would have written.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const LETTER_T = 0x54;
const PLUS = 0x2b;
const MINUS = 0x2d;
const COLON = 0x3a;
const ZERO = 0x30;

const NONE = Buffer.alloc(0);
/** The first buffer's size, and the largest one kept for reuse. */
const FIRST_SIZE = 64 * 1024;
const KEEP_SIZE = 1024 * 1024;

/**
 * A buffer to write into, shared by the writers that are not using it at the moment. Bytes leave as exactly sized
 * copies: a reply of 17 kB then allocates 17 kB of buffer memory, not a 16 kB buffer and its 32 kB growth. Buffer
 * memory is what starts V8's full collections here (its "external memory pressure"): at 1,600 calls a second the
 * old way started one every 0.7 s, each marking the whole 45 MB heap on the helper threads.
 */
let spare: Buffer | undefined;

export class JsonBytes {
  #buffer: Buffer;
  #length = 0;

  /** A writer over the shared buffer when it is free, else over its own; give it back with done(). */
  constructor() {
    this.#buffer = spare ?? NONE;
    spare = undefined;
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.#length;
  }

  /** The bytes written so far as their own buffer, and a fresh start. */
  take(): Buffer {
    const bytes = Buffer.from(this.#buffer.subarray(0, this.#length));
    this.#length = 0;
    return bytes;
  }

  /** Writing is over: the buffer goes back for the next writer (unless it grew too large to keep). */
  done(): void {
    if (this.#buffer !== NONE && this.#buffer.length <= KEEP_SIZE) spare = this.#buffer;
    this.#buffer = NONE;
    this.#length = 0;
  }

  #room(bytes: number): void {
    const needed = this.#length + bytes;
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2, FIRST_SIZE));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }

  /** Bytes as they are (precomputed JSON: keys, separators). */
  bytes(bytes: Uint8Array): void {
    const size = bytes.length;
    this.#room(size);
    const buffer = this.#buffer;
    const at = this.#length;
    // Keys and separators are a few bytes: a loop beats a call into the runtime for each.
    if (size > 32) buffer.set(bytes, at);
    else for (let i = 0; i < size; i += 1) buffer[at + i] = bytes[i]!;
    this.#length = at + size;
  }

  /** Bytes that are JSON already: data[start, end). */
  range(data: Buffer, start: number, end: number): void {
    this.#room(end - start);
    this.#length += data.copy(this.#buffer, this.#length, start, end);
  }

  /** Text that is JSON already (any characters), as UTF-8. */
  json(text: string): void {
    this.#room(text.length * 3);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** A JSON string of `text`. */
  string(text: string): void {
    const size = text.length;
    this.#room(size * 3 + 2);
    const buffer = this.#buffer;
    let at = this.#length;
    buffer[at++] = QUOTE;
    for (let i = 0; i < size; i += 1) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        if (code < SPACE || code === QUOTE || code === BACKSLASH) return this.json(JSON.stringify(text));
        buffer[at++] = code;
      } else if (code < 0x800) {
        buffer[at++] = 0xc0 | (code >> 6);
        buffer[at++] = 0x80 | (code & 0x3f);
      } else if (code >= 0xd800 && code <= 0xdfff) {
        // Surrogates: pairs become four bytes, lone ones an escape; JSON.stringify knows both.
        return this.json(JSON.stringify(text));
      } else {
        buffer[at++] = 0xe0 | (code >> 12);
        buffer[at++] = 0x80 | ((code >> 6) & 0x3f);
        buffer[at++] = 0x80 | (code & 0x3f);
      }
    }
    buffer[at++] = QUOTE;
    this.#length = at;
  }

  /** ASCII text with nothing to escape (digits, literals), as it is. */
  ascii(text: string): void {
    const size = text.length;
    this.#room(size);
    const buffer = this.#buffer;
    let at = this.#length;
    for (let i = 0; i < size; i += 1) buffer[at++] = text.charCodeAt(i);
    this.#length = at;
  }

  number(value: number): void {
    this.ascii(Number.isFinite(value) ? String(value) : 'null');
  }

  /** Any value, as JSON.stringify writes it as a member of a row (undefined as null, bigint as text, bytes as base64). */
  value(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.string(value);
      case 'number':
        return this.number(value);
      case 'boolean':
        return this.ascii(value ? 'true' : 'false');
      case 'bigint':
        return this.string(value.toString());
      case 'object':
        if (value === null) return this.ascii('null');
        if (value instanceof Uint8Array) return this.string(Buffer.from(value).toString('base64'));
        return this.json(JSON.stringify(value) ?? 'null');
      default:
        return this.ascii('null');
    }
  }

  /** A database text as JSON, the way `kind` says (see CellText). */
  cell(text: string, kind: CellText): void {
    switch (kind) {
      case 'digits':
        return this.ascii(text);
      case 'bigint':
        return text.length < 16 || Number.isSafeInteger(Number(text)) ? this.ascii(text) : this.string(text);
      case 'text':
        return this.string(text);
      case 'boolean':
        return this.ascii(text === 't' ? 'true' : 'false');
      case 'timestamp':
        return this.#timestamp(text);
    }
  }

  /** '2024-01-02 03:04:05.123+00' → "2024-01-02T03:04:05.123+00:00"; infinity stays as it is. */
  #timestamp(text: string): void {
    const size = text.length;
    this.#room(size + 5);
    const buffer = this.#buffer;
    let at = this.#length;
    buffer[at++] = QUOTE;
    let replaced = false;
    for (let i = 0; i < size; i += 1) {
      const code = text.charCodeAt(i);
      if (code < SPACE || code >= 0x7f || code === QUOTE || code === BACKSLASH) return this.string(timestampText(text));
      if (code === SPACE && !replaced) {
        buffer[at++] = LETTER_T;
        replaced = true;
      } else buffer[at++] = code;
    }
    // A sign three characters from the end is an hours-only offset (PostgreSQL writes '+05:30' whole).
    const sign = text.charCodeAt(size - 3);
    if (sign === PLUS || sign === MINUS) {
      buffer[at++] = COLON;
      buffer[at++] = ZERO;
      buffer[at++] = ZERO;
    }
    buffer[at++] = QUOTE;
    this.#length = at;
  }
}
