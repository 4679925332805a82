import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, zstdDecompress, type ZlibOptions } from 'node:zlib';
import { EngineError } from '../errors.ts';

// Reads a reply's body into memory with a size cap, on the wire and again after decompression (so a small gzip
// bomb is refused too). A declared Content-Length over the cap is refused before a byte is read.

type Headers = Record<string, string | string[] | undefined>;

export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function tooLarge(maxBytes: number): EngineError {
  return new EngineError('TOO_LARGE', `The web API's reply is larger than the limit of ${maxBytes} bytes`);
}

type Decoder = (data: Buffer, options: ZlibOptions) => Promise<Buffer>;

const decoders: Record<string, Decoder> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress) as Decoder,
  zstd: promisify(zstdDecompress) as Decoder,
  deflate: async (data, options) => {
    try {
      return await promisify(inflate)(data, options);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      return promisify(inflateRaw)(data, options);
    }
  },
};

export interface ReadBody {
  data: Buffer;
  /** Bytes on the wire. */
  received: number;
}

type Body = {
  destroy(error?: Error): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

/** Drops a body that will not be read (its destruction's 'error' is expected, not a crash). */
function discard(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The body's bytes on the wire, within the cap (events, not an async iterator: a promise a chunk costs more). */
function readRaw(body: Body, maxBytes: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > maxBytes) {
        fail(tooLarge(maxBytes));
        discard(body);
      } else chunks.push(chunk);
    });
    body.on('error', fail);
    // Closed before its end without an error of its own: the connection went away midway.
    body.on('close', () => {
      if (!settled) fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      // A reply in one chunk is that chunk (a socket read of its own), not a copy.
      resolve({ data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), received });
    });
  });
}

export async function readBody(body: Body, headers: Headers, maxBytes: number): Promise<ReadBody> {
  const declared = Number(headerValue(headers, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(body);
    throw tooLarge(maxBytes);
  }
  const { data: raw, received } = await readRaw(body, maxBytes);
  const encoding = (headerValue(headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return { data: raw, received };
  const decode = decoders[encoding];
  if (!decode) throw new EngineError('UPSTREAM_FAILED', `The web API's reply uses an unsupported encoding`);
  try {
    return { data: await decode(raw, { maxOutputLength: maxBytes }), received };
  } catch (error) {
    if (error instanceof RangeError) throw tooLarge(maxBytes);
    throw new EngineError('UPSTREAM_FAILED', `The web API's compressed reply could not be read`, { cause: error });
  }
}
