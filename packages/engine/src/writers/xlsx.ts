import type { Writable } from 'node:stream';
import type { ColumnType, RowSource } from '../types.ts';
import { type WriteOptions, type WriteStats, capped, jsonCell } from './sink.ts';
import { truncationNote } from './truncation.ts';
import { ZipWriter } from './zip.ts';

// Target: export server peak RSS < 200 MB, XLSX included (bench/RESULTS.md, "The calling layer" and "Downloads").
// Oracle: writers-oracle.test.ts against exceljs; switch: WriteOptions.xlsxWriter (the test injects exceljs's).
//
// XLSX written by hand: the sheet's XML is written cell by cell into ~64 KiB buffers that are deflated into the ZIP
// as they fill (zip.ts), each waiting for the Writable. One cell's string and one buffer are all that is held, so
// a 1,000,000-row export leaves little garbage behind (exceljs's streaming writer built a model per row and piled
// ~150 MB of garbage into the old generation before V8 collected it). Cells are typed values, never formulas (no
// neutralising needed): numbers as numbers, booleans as booleans, dates and date-times as Excel dates (a serial
// number of days with a date format, so a spreadsheet sorts, filters and computes with them; date-times in UTC,
// as the other formats write them), everything else as text (`t="str"`, as exceljs wrote it without shared
// strings); nulls are empty cells.

const PIECE = 64 * 1024;
/** Consumed buffers kept to be filled again (a row rarely fills more than one). */
const SPARE_PIECES = 2;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const CONTENT_TYPES =
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const PACKAGE_RELS =
  `${XML}<Relationships xmlns="${RELS}">` +
  `<Relationship Id="rId1" Type="${OFFICE_RELS}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS =
  `${XML}<Relationships xmlns="${RELS}">` +
  `<Relationship Id="rId1" Type="${OFFICE_RELS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${OFFICE_RELS}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/**
 * The minimal style sheet spreadsheet programs expect: one font, the two required fills, one border; three cell
 * formats: general (0), a date (1: yyyy-mm-dd) and a date-time (2: yyyy-mm-dd hh:mm:ss).
 */
const STYLES =
  `${XML}<styleSheet xmlns="${MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>' +
  '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>' +
  '</fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const workbookXml = (sheetName: string) =>
  `${XML}<workbook xmlns="${MAIN}" xmlns:r="${OFFICE_RELS}">` +
  `<sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

const SHEET_START = `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${OFFICE_RELS}"><sheetData>`;
const SHEET_END = '</sheetData></worksheet>';

// XML 1.0 cannot carry most control characters (even escaped): they are dropped, as exceljs dropped them.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
const XML_SPECIAL_ALL = new RegExp(XML_SPECIAL.source, 'g');
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };

export function xmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => ENTITIES[c] ?? '') : text;
}

/** Spreadsheet column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A sheet name Excel accepts: none of : \ / ? * [ ], at most 31 characters, not empty. */
export function sheetName(name: string | undefined): string {
  const cleaned = (name ?? 'Result').replace(/[:\\/?*[\]]/g, ' ').slice(0, 31);
  return cleaned.trim() === '' ? 'Result' : cleaned;
}

const DAY_MS = 86_400_000;
/** Excel's serial day 0 is 1899-12-30 (so that its fictitious 1900-02-29 keeps later serials right). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
/** Serials before 1900-03-01 are off by Excel's fictitious leap day: such dates stay text. */
const FIRST_SAFE_SERIAL = 61;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** A date or date-time as milliseconds since 1970 (UTC), or undefined when it is not one. */
function instantOf(value: unknown, type: ColumnType): number | undefined {
  if (value instanceof Date) return value.getTime();
  if ((type !== 'date' && type !== 'datetime') || typeof value !== 'string') return undefined;
  const text = value.trim();
  if (DATE_ONLY.test(text)) return Date.parse(`${text}T00:00:00Z`);
  // A date-time without a zone (MySQL, SQLite text) is read as UTC, as the other formats show it.
  const iso = text.replace(' ', 'T');
  return Date.parse(HAS_ZONE.test(iso) ? iso : `${iso}Z`);
}

/** The cell of a date (style 1) or date-time (style 2); undefined when the value is not one Excel can hold. */
function dateCellXml(value: unknown, type: ColumnType, ref: string): string | undefined {
  const ms = instantOf(value, type);
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  const serial = (ms - EXCEL_EPOCH_MS) / DAY_MS;
  if (serial < FIRST_SAFE_SERIAL || serial >= 2_958_466) return undefined; // Excel's range ends at 9999-12-31
  const style = type === 'date' && ms % DAY_MS === 0 ? 1 : 2;
  return `<c r="${ref}" s="${style}"><v>${serial}</v></c>`;
}

/** One cell's XML (empty for a null). `ref` is the cell's reference, e.g. B7. */
function cellXml(value: unknown, type: ColumnType, ref: string): string {
  const date = dateCellXml(value, type, ref);
  if (date !== undefined) return date;
  const cell = jsonCell(value);
  if (cell === null) return '';
  if (typeof cell === 'number') {
    return Number.isFinite(cell) ? `<c r="${ref}"><v>${cell}</v></c>` : `<c r="${ref}" t="str"><v>${cell}</v></c>`;
  }
  if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
  if ((type === 'decimal' || type === 'integer') && typeof cell === 'string') {
    const number = Number(cell);
    if (Number.isFinite(number)) return `<c r="${ref}"><v>${number}</v></c>`;
  }
  const text = typeof cell === 'object' ? JSON.stringify(cell) : String(cell);
  return `<c r="${ref}" t="str"><v>${xmlText(text)}</v></c>`;
}

/**
 * The sheet's XML written straight into ~64 KiB buffers, a cell at a time, each full buffer handed on at the end of
 * its row. No string per row: `piece += row` chained every row of a piece into one rope, and the rows' own strings
 * were copied again when flattened; fewer allocations mean fewer young-generation collections, each of which promotes
 * the rows still in flight into the old generation (decision 118).
 */
class SheetPiece {
  readonly #write: (data: Buffer) => Promise<void>;
  #buffer = Buffer.allocUnsafe(PIECE);
  #used = 0;
  /** Filled buffers waiting to be handed on: the bytes written, and the whole buffer to fill again after. */
  #full: { bytes: Buffer; whole?: Buffer<ArrayBuffer> }[] = [];
  /**
   * Buffers handed on and consumed (the ZIP writer's `write` resolves once deflate has read them), filled again: a
   * fresh 64 KiB buffer per piece is memory outside the V8 heap that only a collection frees, and V8 lets tens of
   * megabytes of it pile up before it collects (decision 121).
   */
  readonly #spare: Buffer<ArrayBuffer>[] = [];

  constructor(write: (data: Buffer) => Promise<void>) {
    this.#write = write;
  }

  put(xml: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: start a new buffer when the text might not fit.
    if (this.#used + xml.length * 3 > PIECE) {
      this.#seal();
      if (xml.length * 3 > PIECE) {
        this.#full.push({ bytes: Buffer.from(xml, 'utf8') }); // one huge cell: on its own
        return;
      }
    }
    this.#used += this.#buffer.write(xml, this.#used, 'utf8');
  }

  /** Whether a filled buffer waits to be handed on. */
  get hasFull(): boolean {
    return this.#full.length > 0;
  }

  /** Hands on the buffers filled so far; with `all`, the one being filled too. */
  async flush(all = false): Promise<void> {
    if (all) this.#seal();
    while (this.#full.length > 0) {
      const { bytes, whole } = this.#full.shift()!;
      await this.#write(bytes);
      if (whole && this.#spare.length < SPARE_PIECES) this.#spare.push(whole);
    }
  }

  /** The buffer waits to be handed on; a spare one (or a fresh one) is filled meanwhile. */
  #seal(): void {
    if (this.#used === 0) return;
    this.#full.push({ bytes: this.#buffer.subarray(0, this.#used), whole: this.#buffer });
    this.#buffer = this.#spare.pop() ?? Buffer.allocUnsafe(PIECE);
    this.#used = 0;
  }
}

export async function writeXlsx(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const zip = new ZipWriter(out);
  await zip.addFile('[Content_Types].xml', CONTENT_TYPES);
  await zip.addFile('_rels/.rels', PACKAGE_RELS);
  await zip.addFile('xl/workbook.xml', workbookXml(sheetName(options.sheetName)));
  await zip.addFile('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
  await zip.addFile('xl/styles.xml', STYLES);
  const columns = result.columns;
  const letters = columns.map((_column, index) => columnLetters(index));
  const state = { truncated: false };
  let rows = 0;
  await zip.addStream('xl/worksheets/sheet1.xml', async (write) => {
    const piece = new SheetPiece(write);
    piece.put(SHEET_START);
    piece.put('<row r="1">');
    columns.forEach((column, index) => piece.put(cellXml(column.name, 'string', `${letters[index]}1`)));
    piece.put('</row>');
    for await (const row of capped(result.rows, options.maxRows, state)) {
      const r = String(rows + 2);
      piece.put(`<row r="${r}">`);
      for (let index = 0; index < columns.length; index += 1) {
        const column = columns[index]!;
        piece.put(cellXml(row[column.name], column.type, letters[index] + r));
      }
      piece.put('</row>');
      rows += 1;
      if (piece.hasFull) await piece.flush();
    }
    // A result cut at the row limit ends with a note row, its text in the first cell.
    if (state.truncated) {
      const r = String(rows + 2);
      piece.put(`<row r="${r}">${cellXml(truncationNote(options.maxRows), 'string', `A${r}`)}</row>`);
    }
    piece.put(SHEET_END);
    await piece.flush(true);
  });
  await zip.finish();
  return { rows, bytes: zip.bytes, truncated: state.truncated };
}
