import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, zstdDecompress, type ZlibOptions } from 'node:zlib';
import { EngineError } from '../errors.ts';

// A reply's body is capped on the wire (reply-reader.ts: a declared Content-Length over the cap is refused before a
// byte is read) and again after decompression here, so a small gzip bomb is refused too.

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

/** The body as sent, decoded from its Content-Encoding within the cap: the bytes themselves when not encoded. */
export function decodeBody(raw: Buffer, headers: Headers, maxBytes: number): Buffer | Promise<Buffer> {
  const encoding = headerValue(headers, 'content-encoding')?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return raw;
  const decode = decoders[encoding];
  if (!decode) throw new EngineError('UPSTREAM_FAILED', `The web API's reply uses an unsupported encoding`);
  return decode(raw, { maxOutputLength: maxBytes }).catch((error: unknown) => {
    if (error instanceof RangeError) throw tooLarge(maxBytes);
    throw new EngineError('UPSTREAM_FAILED', `The web API's compressed reply could not be read`, { cause: error });
  });
}
