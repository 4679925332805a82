import { describe, expect, it } from 'vitest';
import { MalformedResult, readResultBody } from './result-body.ts';

// The engine's JSON writer (packages/engine/src/writers/json.ts; its test pins this layout): each row on a line of
// its own, then the end of the rows and the reply's own members on the last line.
const columns = [
  { name: 'id', type: 'integer' },
  { name: 'name', type: 'string' },
];

function writerLayout(rows: unknown[], tail = '"truncated":false,"durationMs":7,"cached":true') {
  const lines = rows.map((row) => JSON.stringify(row));
  return `{"columns":${JSON.stringify(columns)},"rows":[\n${lines.join(',\n')}${lines.length > 0 ? '\n' : ''}],${tail}}`;
}

/** A reply whose body arrives in chunks of these byte sizes (the last one repeated). */
function replyInChunks(text: string, sizes: number[]): Response {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i += 1) {
    const size = sizes[Math.min(i, sizes.length - 1)] ?? bytes.length;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  );
}

const rows = [
  { id: 1, name: 'Zoë, "quoted"\nand a line break' },
  { id: 2, name: '],"truncated":true}' },
  { id: 3, name: null },
];

describe('readResultBody', () => {
  it('reads the line-per-row layout in any chunking, even one that splits a character', async () => {
    const text = writerLayout(rows);
    const splitAt = new TextEncoder().encode(text.slice(0, text.indexOf('ë'))).length + 1; // inside 'ë'
    for (const sizes of [[text.length * 4], [1], [splitAt, 7, 64], [splitAt + 40, 3]]) {
      const body = await readResultBody(replyInChunks(text, sizes));
      expect(body.rows).toEqual(rows);
      expect(body.members).toEqual({ columns, truncated: false, durationMs: 7, cached: true });
      expect(body.text).toBe(text);
      expect(body.sliced).toBe(true);
    }
  });

  it('reads an empty result and members after the rows that a reply adds (the exchanges)', async () => {
    const empty = await readResultBody(replyInChunks(writerLayout([]), [5]));
    expect(empty).toMatchObject({ rows: [], sliced: true });
    const tail = '"truncated":true,"durationMs":1,"cached":false,"exchanges":[{"a":"x\\ny"}],"exchangesOmitted":0';
    const body = await readResultBody(replyInChunks(writerLayout(rows, tail), [10]));
    expect(body).toMatchObject({ sliced: true, rows });
    expect(body.members).toMatchObject({ truncated: true, exchanges: [{ a: 'x\ny' }], exchangesOmitted: 0 });
  });

  it('reads any other layout of the same JSON too, whole', async () => {
    const reply = { columns, rows, truncated: false, durationMs: 3, cached: false };
    for (const text of [JSON.stringify(reply), JSON.stringify(reply, null, 2), `${writerLayout(rows)}\n`]) {
      const body = await readResultBody(replyInChunks(text, [9]));
      expect(body.rows).toEqual(rows);
      expect(body.members).toMatchObject({ columns, truncated: false });
      expect(body.sliced).toBe(false);
    }
  });

  it('refuses a body that is not a result, keeping its text', async () => {
    const notJson = readResultBody(new Response('<html>proxy error</html>'));
    await expect(notJson).rejects.toBeInstanceOf(MalformedResult);
    await expect(notJson).rejects.toMatchObject({ text: '<html>proxy error</html>' });
    const rowNotObject = writerLayout([{ id: 1 }, [1, 2]]);
    await expect(readResultBody(replyInChunks(rowNotObject, [8]))).rejects.toThrow('a row is not an object');
    const noRows = JSON.stringify({ columns, truncated: false });
    await expect(readResultBody(new Response(noRows))).rejects.toThrow('rows is not an array');
  });

  it('gives the event loop its turn while it parses a large reply', async () => {
    const many = Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `customer ${i}@shop.test`, total: i * 1.5 }));
    const text = writerLayout(many);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let timerRanBeforeTheEnd = false;
    const reading = readResultBody(replyInChunks(text, [256 * 1024])).then((body) => {
      timerRanBeforeTheEnd = timerRan;
      return body;
    });
    const body = await reading;
    expect(body.rows).toHaveLength(60_000);
    expect(body.rows[59_999]).toEqual(many[59_999]);
    expect(timerRanBeforeTheEnd).toBe(true);
  });
});
