import type { Writable } from 'node:stream';
import { JsonRows, TextRows, isInMemory, type Column, type Row, type RowSource, type RowsInMemory } from '../types.ts';
import { JsonBytes } from './json-bytes.ts';
import { capped, jsonCell, writeWithBackpressure, type WriteOptions, type WriteStats } from './sink.ts';
import { ndjsonTruncationLine } from './truncation.ts';

// { columns: [{ name, type }], rows: [{…}], truncated, durationMs, cached }, streamed row by row. truncated and
// durationMs come last, once the rows are out. Each row starts a line, and so does the `]` after the last one, so a
// reader can take the reply apart at line breaks (the portal parses 100,000 rows a slice at a time that way); a
// raw line break never occurs inside JSON text (it is always escaped), and the whole stays the same valid JSON
// for every other client.
//
// NDJSON (below) writes the same row objects, one a line. Rows are written into bytes directly (json-bytes.ts), each
// member's key prepared once; rows in memory as the database's texts are written from those texts.

/** Bytes gathered before they go to the Writable. */
const CHUNK = 64 * 1024;

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const NO_KEY = Buffer.alloc(0);

/**
 * Row members: one per distinct column name, in the order names first appear (as an object of the row would
 * hold them), with the key text ready (`{"a":` for the first, `,"b":` after it).
 */
interface Member {
  name: string;
  /** The last column of that name (the one whose value the row object holds). */
  column: number;
  key: Buffer;
}

function members(columns: readonly Column[]): Member[] {
  const byName = new Map<string, Member>();
  columns.forEach((column, index) => {
    const known = byName.get(column.name);
    if (known) known.column = index;
    else byName.set(column.name, { name: column.name, column: index, key: NO_KEY });
  });
  return [...byName.values()];
}

/** The members' key texts, made only for rows written member by member (rows copied as bytes need none). */
function withKeys(list: Member[]): Member[] {
  list.forEach((member, index) => (member.key = utf8(`${index === 0 ? '{' : ','}${JSON.stringify(member.name)}:`)));
  return list;
}

const EMPTY_ROW = utf8('{}');
const CLOSE = utf8('}');
const FIRST = utf8('\n');
const NEXT = utf8(',\n');
const JSON_FRAMING: Framing = { first: FIRST, next: NEXT };

/**
 * The row's keys are the columns, in order, and JSON.stringify writes each value as JsonBytes.value would (a Date
 * becomes the same ISO text through its toJSON): then the row can be written as it is, without a copy.
 */
function isJsonReady(columns: readonly Column[], row: Row): boolean {
  let index = 0;
  for (const name in row) {
    if (columns[index]?.name !== name || !Object.hasOwn(row, name)) return false;
    const value = row[name];
    if (value === undefined || typeof value === 'bigint' || ArrayBuffer.isView(value)) return false;
    index += 1;
  }
  return index === columns.length;
}

/** The row with the columns' order and only the columns' keys, each value as JSON can carry it. */
function jsonRow(columns: readonly Column[], row: Row): Row {
  if (isJsonReady(columns, row)) return row;
  const out: Row = {};
  for (const column of columns) out[column.name] = jsonCell(row[column.name]);
  return out;
}

function writeObjectRow(bytes: JsonBytes, list: readonly Member[], row: Row): void {
  if (list.length === 0) return bytes.bytes(EMPTY_ROW);
  for (const member of list) {
    bytes.bytes(member.key);
    bytes.value(row[member.name]);
  }
  bytes.bytes(CLOSE);
}

function writeTextRow(bytes: JsonBytes, list: readonly Member[], rows: TextRows, index: number): void {
  if (list.length === 0) return bytes.bytes(EMPTY_ROW);
  const texts = rows.texts[index]!;
  const kinds = rows.cellTexts;
  for (const member of list) {
    bytes.bytes(member.key);
    const text = texts[member.column];
    const kind = kinds[member.column];
    if (text === null || text === undefined) bytes.ascii('null');
    else if (kind) bytes.cell(text, kind);
    else bytes.value(rows.all[index]![member.name]);
  }
  bytes.bytes(CLOSE);
}

/**
 * The columns are these names, in this order, each once (rows whose bytes hold exactly them can be copied): the
 * scanned names are distinct, so a column named twice never matches.
 */
function sameNames(columns: readonly Column[], names: readonly string[]): boolean {
  return columns.length === names.length && columns.every((column, index) => column.name === names[index]);
}

/** How rows are framed: the bytes before the first row, before each later one, and after each. */
interface Framing {
  first: Buffer;
  next: Buffer;
  after?: Buffer;
}

/** Rows held in memory as the writer takes them: copied as bytes, written from texts, or from values. */
class MemoryRows {
  readonly count: number;
  readonly truncated: boolean;
  readonly #source: RowsInMemory;
  readonly #list: readonly Member[];
  readonly #json: JsonRows | undefined;
  readonly #texts: TextRows | undefined;

  constructor(columns: readonly Column[], source: RowsInMemory, maxRows: number) {
    this.#source = source;
    this.count = Math.min(source.count, maxRows);
    this.truncated = source.count > maxRows;
    this.#texts = source instanceof TextRows ? source : undefined;
    this.#json = source instanceof JsonRows && sameNames(columns, source.names) ? source : undefined;
    // Rows copied as bytes need no members.
    this.#list = this.#json ? [] : withKeys(members(columns));
  }

  /** Row i with its framing. */
  write(bytes: JsonBytes, i: number, framing: Framing): void {
    bytes.bytes(i === 0 ? framing.first : framing.next);
    if (this.#json) bytes.range(this.#json.data, this.#json.starts[i]!, this.#json.ends[i]!);
    else if (this.#texts) writeTextRow(bytes, this.#list, this.#texts, i);
    else writeObjectRow(bytes, this.#list, this.#source.all[i]!);
    if (framing.after) bytes.bytes(framing.after);
  }
}

/**
 * Writes at most maxRows rows as JSON objects into `bytes`, handing full chunks to `send`; answers how many were
 * written and whether more were there.
 */
async function writeJsonRows(
  result: RowSource,
  maxRows: number,
  bytes: JsonBytes,
  send: () => Promise<void>,
  framing: Framing,
  rowsBy: WriteOptions['jsonRows'] = 'own',
): Promise<{ count: number; truncated: boolean }> {
  const source = result.rows;
  if (isInMemory(source) && rowsBy === 'own') {
    const rows = new MemoryRows(result.columns, source, maxRows);
    for (let i = 0; i < rows.count; i += 1) {
      rows.write(bytes, i, framing);
      if (bytes.length >= CHUNK) await send();
    }
    return { count: rows.count, truncated: rows.truncated };
  }
  // Rows that stream (exports) go through JSON.stringify, one text a row: a writer that made no garbage of its own
  // let V8's young collections thin out, and the 64 kB chunks already sent waited longer to be freed (a 1,000,000-row
  // NDJSON export peaked 23 MB higher).
  const { first, next, after } = framing;
  const state = { truncated: false };
  let count = 0;
  for await (const row of capped(source, maxRows, state)) {
    bytes.bytes(count === 0 ? first : next);
    bytes.json(JSON.stringify(jsonRow(result.columns, row)));
    if (after) bytes.bytes(after);
    count += 1;
    if (bytes.length >= CHUNK) await send();
  }
  return { count, truncated: state.truncated };
}

/** Runs `write` with a JsonBytes whose `send` hands what it holds to the Writable (with backpressure). */
async function withBytes(
  out: Writable,
  write: (bytes: JsonBytes, send: () => Promise<void>) => Promise<{ count: number; truncated: boolean }>,
): Promise<WriteStats> {
  const bytes = new JsonBytes();
  let sent = 0;
  const send = async () => {
    if (bytes.length === 0) return;
    const chunk = bytes.take();
    sent += chunk.length;
    await writeWithBackpressure(out, chunk);
  };
  try {
    const { count, truncated } = await write(bytes, send);
    await send();
    return { rows: count, bytes: sent, truncated };
  } finally {
    bytes.done();
  }
}

const NO_BYTES = Buffer.alloc(0);

/** Head bytes of frozen column lists (a scanned page's, shared by every call that reads its shape). */
const heads = new WeakMap<readonly Column[], Buffer>();

/** `{"columns":[...],"rows":[` */
function writeHead(bytes: JsonBytes, columns: readonly Column[]): void {
  const known = heads.get(columns);
  if (known) return bytes.bytes(known);
  const named = columns.map((c) => ({ name: c.name, type: c.type }));
  const head = `{"columns":${JSON.stringify(named)},"rows":[`;
  // Only a list that cannot change may be known by its identity.
  if (Object.isFrozen(columns) && columns.every((column) => Object.isFrozen(column))) heads.set(columns, utf8(head));
  bytes.json(head);
}

/** The closing members, once the rows are out: truncated, durationMs, cached and the caller's extra ones. */
function writeTail(bytes: JsonBytes, truncated: boolean, options: WriteOptions): void {
  const durationMs = options.startedAt === undefined ? 0 : Math.round(performance.now() - options.startedAt);
  const tail = `\n],"truncated":${truncated},"durationMs":${durationMs},"cached":${options.cached === true}`;
  bytes.json(`${tail}${options.extra?.() ?? ''}}`);
}

export function writeJson(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  return withBytes(out, async (bytes, send) => {
    writeHead(bytes, result.columns);
    const written = await writeJsonRows(result, options.maxRows, bytes, send, JSON_FRAMING, options.jsonRows);
    writeTail(bytes, written.truncated, options);
    return written;
  });
}

/**
 * The JSON reply of rows held in memory, written at once into one buffer: the same bytes as writeJson, without a
 * Writable to hand them to or a promise to wait for (an interactive call's reply is collected whole anyway).
 * Undefined for rows that stream.
 */
export function jsonInMemory(
  result: RowSource,
  options: WriteOptions,
): { body: Buffer; stats: WriteStats } | undefined {
  const source = result.rows;
  if (!isInMemory(source) || (options.jsonRows ?? 'own') !== 'own') return undefined;
  const bytes = new JsonBytes();
  try {
    writeHead(bytes, result.columns);
    const rows = new MemoryRows(result.columns, source, options.maxRows);
    for (let i = 0; i < rows.count; i += 1) rows.write(bytes, i, JSON_FRAMING);
    writeTail(bytes, rows.truncated, options);
    const body = bytes.take();
    return { body, stats: { rows: rows.count, bytes: body.length, truncated: rows.truncated } };
  } finally {
    bytes.done();
  }
}

/** NDJSON: one JSON object per line ('\n'), no header; a result cut at the row limit ends with a marked line. */
export function writeNdjson(result: RowSource, out: Writable, options: WriteOptions): Promise<WriteStats> {
  const framing = { first: NO_BYTES, next: NO_BYTES, after: FIRST };
  return withBytes(out, async (bytes, send) => {
    const written = await writeJsonRows(result, options.maxRows, bytes, send, framing, options.jsonRows);
    if (written.truncated) bytes.json(ndjsonTruncationLine(written.count, options.maxRows));
    return written;
  });
}
