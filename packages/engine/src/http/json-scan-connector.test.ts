import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRows } from '../writers/index.ts';
import { type TestServer, startServer } from '../../test/support/http-server.ts';
import { mutate, randomReply, seeded } from '../../test/support/json-replies.ts';
import { type HttpConnector, createHttpConnector } from './connector.ts';

// The JSON scan held to JSON.parse through the connector's public call: the same random replies, read by a connector
// that scans (the default) and by one that parses every reply ({ scan: false }), must give the same columns, JSON that
// says the same and the same CSV — or fail with the same error. A seeded generator, so a failure replays from its seed.

let server: TestServer;
let reply: { text: Buffer; contentType: string } = { text: Buffer.from('[]'), contentType: 'application/json' };
let scanning: HttpConnector;
let parsing: HttpConnector;

beforeAll(async () => {
  server = await startServer((_, response) => {
    response.writeHead(200, { 'content-type': reply.contentType, 'content-length': reply.text.length });
    response.end(reply.text);
  });
  const settings = { baseUrl: `${server.url}/api`, allowedHosts: [`127.0.0.1:${server.port}`] };
  scanning = createHttpConnector(settings);
  parsing = createHttpConnector(settings, { scan: false });
});

afterAll(async () => {
  await scanning?.close();
  await parsing?.close();
  await server?.close();
});

async function outcome(connector: HttpConnector, rowsPath: string, format: 'json' | 'csv'): Promise<string> {
  try {
    const stream = await connector.request({ definition: { rowsPath }, values: {}, timeoutMs: 5_000 });
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeRows(format, stream, out, { maxRows: 1_000, startedAt: 0 });
    const text = Buffer.concat(chunks).toString('utf8');
    // A scanned row is copied as the reply wrote it (its spaces, 2.0): the JSON must say the same, not be the same bytes.
    const said = format === 'json' ? JSON.stringify({ ...JSON.parse(text), durationMs: 0 }) : text;
    return `${JSON.stringify(stream.columns)}\n${said}`;
  } catch (error) {
    return `error: ${String(error)}`;
  }
}

describe('the connector with and without the JSON scan', () => {
  it('answers random replies and their one-byte mutations alike, as JSON and as CSV', async () => {
    const seed = 31;
    const random = seeded(seed);
    let rowsAnswered = 0;
    for (let i = 0; i < 300; i += 1) {
      const generated = randomReply(random);
      const text = Buffer.from(generated.text);
      reply = { text: random() < 0.3 ? mutate(random, text) : text, contentType: 'application/json' };
      const format = random() < 0.5 ? 'json' : 'csv';
      const scanned = await outcome(scanning, generated.rowsPath, format);
      const parsed = await outcome(parsing, generated.rowsPath, format);
      expect(scanned, `seed ${seed}, reply ${i}: ${reply.text.toString('utf8')}`).toBe(parsed);
      if (!parsed.startsWith('error')) rowsAnswered += 1;
    }
    // Most replies are read, not refused: the comparison is about rows, not only about errors.
    expect(rowsAnswered).toBeGreaterThan(150);
  }, 60_000);
});
