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

type Body = AsyncIterable<Buffer> & {
  destroy(error?: Error): unknown;
  on(event: 'error', listener: () => void): unknown;
};

/** Drops a body that will not be read (its destruction's 'error' is expected, not a crash). */
function discard(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

export async function readBody(body: Body, headers: Headers, maxBytes: number): Promise<ReadBody> {
  const declared = Number(headerValue(headers, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(body);
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > maxBytes) {
      discard(body);
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, received);
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
