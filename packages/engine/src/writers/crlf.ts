// PostgreSQL's COPY ... CSV ends records with LF; RFC 4180 (and the row writer) use CRLF. This rewrites record
// ends only — a line break inside a quoted field is data and stays as it is.

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export class CrlfRecordEnds {
  #inQuotes = false;
  #previous = -1;

  convert(chunk: Buffer): Buffer {
    let breaks = 0;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === LF) breaks += 1;
    if (breaks === 0) return this.#scan(chunk, null);
    return this.#scan(chunk, Buffer.allocUnsafe(chunk.length + breaks));
  }

  #scan(chunk: Buffer, out: Buffer | null): Buffer {
    let o = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i]!;
      if (byte === QUOTE) this.#inQuotes = !this.#inQuotes;
      else if (byte === LF && !this.#inQuotes && this.#previous !== CR && out) out[o++] = CR;
      if (out) out[o++] = byte;
      this.#previous = byte;
    }
    return out ? out.subarray(0, o) : chunk;
  }
}
