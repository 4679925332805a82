// Target: 1,000,000 rows CSV ≤ 1.5 × psql \copy (bench/RESULTS.md, "The calling layer"). Oracle: postgres.int.test.ts
// (COPY's bytes equal the row path's); switch: exportCsv(options, out, maxRows, 'rows').
//
// PostgreSQL's COPY ... CSV ends records with LF; RFC 4180 (and the row writer) use CRLF. This rewrites record
// ends only — a line break inside a quoted field is data and stays as it is. It also counts records and the header's
// fields, and passes at most `maxRecords` records: COPY is asked for one row more than the export writes, so a byte
// after the last record passed means the result was longer (`overflow`).

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const NOTHING = Buffer.alloc(0);

export class CrlfRecordEnds {
  readonly #maxRecords: number;
  #inQuotes = false;
  #previous = -1;
  /** Records ended so far (the header among them). */
  records = 0;
  /** The first record's fields: its commas outside quotes, plus one. */
  headerFields = 1;
  /** Bytes came after the last record passed: the result was longer than `maxRecords`. */
  overflow = false;

  constructor(maxRecords = Number.POSITIVE_INFINITY) {
    this.#maxRecords = maxRecords;
  }

  convert(chunk: Buffer): Buffer {
    if (this.records >= this.#maxRecords) {
      if (chunk.length > 0) this.overflow = true;
      return NOTHING;
    }
    let breaks = 0;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === LF) breaks += 1;
    if (breaks === 0) return this.#scan(chunk, null);
    return this.#scan(chunk, Buffer.allocUnsafe(chunk.length + breaks));
  }

  /** Copies `chunk` into `out` with CRLF record ends (no `out`: the chunk has no LF and passes as it is). */
  #scan(chunk: Buffer, out: Buffer | null): Buffer {
    let o = 0;
    let i = 0;
    while (i < chunk.length) {
      const byte = chunk[i]!;
      i += 1;
      let ended = false;
      if (byte === QUOTE) this.#inQuotes = !this.#inQuotes;
      else if (this.#inQuotes) {
        // data: a comma or line break inside quotes ends nothing
      } else if (byte === COMMA && this.records === 0) this.headerFields += 1;
      else if (byte === LF) {
        if (this.#previous !== CR && out) out[o++] = CR;
        this.records += 1;
        ended = true;
      }
      if (out) out[o++] = byte;
      this.#previous = byte;
      if (ended && this.records >= this.#maxRecords) break;
    }
    if (i < chunk.length) this.overflow = true;
    return out ? out.subarray(0, o) : chunk.subarray(0, i);
  }
}
