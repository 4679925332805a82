import { sliceClock } from './time-slice.ts';

// Reads a calling-layer JSON result (up to 100,000 rows, ~15 MB) without a long task. The engine's JSON writer starts
// each row on a line of its own and the end of the rows on the next:
//
//   {"columns":[…],"rows":[
//   {…},
//   {…}
//   ],"truncated":false,"durationMs":12,"cached":false}
//
// so the body is read as a stream and parsed a batch of lines at a time, with the browser's turn between slices. A
// raw line break cannot occur inside JSON text, so the lines are exactly the rows. A body of any other layout (still
// valid JSON) is parsed whole at the end: correct, only not sliced.

export type ResultRowObject = Record<string, unknown>;

export interface ResultBody {
  /** The reply's members other than rows (columns, truncated, durationMs, …), not yet checked. */
  members: Record<string, unknown>;
  /** Every row, each checked to be an object. */
  rows: ResultRowObject[];
  /** The body as received (the developer view shows it). */
  text: string;
  /** performance.now() when the last byte had arrived. */
  receivedAt: number;
  /** Parsed a slice at a time as it arrived (the writer's layout), rather than whole at the end. */
  sliced: boolean;
}

/** The body is not a result: not JSON, or rows that are not objects. */
export class MalformedResult extends Error {
  override name = 'MalformedResult';
  /** The body as received. */
  text = '';
}

const HEAD_END = '"rows":[';
/** Rows parsed in one JSON.parse: big enough to make the call cheap, small enough to fit a slice. */
const BATCH_CHARS = 64 * 1024;

const isObject = (value: unknown): value is ResultRowObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkedRows(value: unknown): ResultRowObject[] {
  if (!Array.isArray(value)) throw new MalformedResult('rows is not an array');
  for (const row of value) if (!isObject(row)) throw new MalformedResult('a row is not an object');
  return value as ResultRowObject[];
}

function parseObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) throw new MalformedResult('the reply is not an object');
  return value;
}

/** Parses the line-per-row layout as the text arrives; gives up (and leaves it to a whole parse) on anything else. */
class LineParser {
  members: Record<string, unknown> | undefined;
  readonly rows: ResultRowObject[] = [];
  ended = false;
  failed = false;

  /** Whole lines (the text up to a line break). Returns how far it got, to be called again for the rest. */
  lines(text: string, from: number): number {
    if (this.failed || this.ended) return text.length;
    if (this.members === undefined) return this.head(text, from);
    if (text.startsWith(']', from)) {
      this.failed = true; // the writer ends the rows on the last line, never before a line break
      return text.length;
    }
    // A batch of whole row lines: `{…},\n{…},\n…{…}` (the last one's comma dropped) is a JSON array's inside.
    let end = text.indexOf('\n', Math.min(text.length, from + BATCH_CHARS));
    if (end < 0) end = text.length;
    let batch = text.slice(from, end);
    const tailAt = batch.indexOf('\n]');
    if (tailAt >= 0) {
      batch = batch.slice(0, tailAt);
      end = from + tailAt;
    }
    if (batch.endsWith(',')) batch = batch.slice(0, -1);
    try {
      const rows: unknown = JSON.parse(`[${batch}]`);
      for (const row of rows as unknown[]) {
        if (!isObject(row)) throw new MalformedResult('a row is not an object');
        this.rows.push(row);
      }
    } catch {
      this.failed = true;
    }
    return end + 1;
  }

  /** The last line: `],"truncated":…}`. */
  last(line: string) {
    if (this.failed || this.members === undefined || !line.startsWith(']')) {
      this.failed = true;
      return;
    }
    try {
      const rest = line.slice(1).trim();
      const tail = rest === '}' ? {} : rest.startsWith(',') ? parseObject(`{${rest.slice(1)}`) : undefined;
      if (!tail) throw new MalformedResult('unexpected end of the rows');
      this.members = { ...this.members, ...tail };
      this.ended = true;
    } catch {
      this.failed = true;
    }
  }

  private head(text: string, from: number): number {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    const line = text.slice(from, end);
    try {
      if (!line.endsWith(HEAD_END)) throw new MalformedResult('not the line-per-row layout');
      const { rows: _rows, ...members } = parseObject(`${line}]}`);
      this.members = members;
    } catch {
      this.failed = true;
    }
    return end + 1;
  }
}

/** Reads and parses a JSON result reply; throws MalformedResult (with the text) when it is not one. */
export async function readResultBody(response: Response): Promise<ResultBody> {
  const parser = new LineParser();
  const text = response.body ? await readLines(response.body, parser) : await response.text();
  const receivedAt = performance.now();
  if (parser.ended && !parser.failed && parser.members) {
    return { members: parser.members, rows: parser.rows, text, receivedAt, sliced: true };
  }
  // Another layout: one parse of the whole text.
  try {
    const { rows, ...members } = parseObject(text);
    return { members, rows: checkedRows(rows), text, receivedAt, sliced: false };
  } catch (error) {
    const malformed =
      error instanceof MalformedResult
        ? error
        : new MalformedResult(error instanceof Error ? error.message : String(error), { cause: error });
    malformed.text = text;
    throw malformed;
  }
}

/** Reads the stream to its end, handing whole lines to the parser a slice at a time; returns the whole text. */
async function readLines(body: ReadableStream<Uint8Array>, parser: LineParser): Promise<string> {
  const clock = sliceClock();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
    text += chunk;
    // Only the new text is searched for a line break: a body without any (another layout) costs no rescans.
    const lastBreak = parser.failed ? -1 : chunk.lastIndexOf('\n');
    if (lastBreak < 0) {
      if (!parser.failed) pending += chunk;
    } else {
      const whole = pending + chunk.slice(0, lastBreak);
      pending = chunk.slice(lastBreak + 1);
      for (let at = 0; at <= whole.length && !parser.failed;) {
        at = parser.lines(whole, at);
        if (clock.due()) await clock.next();
      }
    }
    if (done) break;
  }
  parser.last(pending);
  return text;
}
