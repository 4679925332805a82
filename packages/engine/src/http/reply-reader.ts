import type { Dispatcher } from 'undici';
import { headerValue, tooLarge } from './body.ts';

// One upstream exchange through undici's dispatch interface, read by a handler of our own: the status and headers,
// then the body gathered as it arrives within the size cap and the whole-body time limit. undici's request() would
// wrap the body in a Readable stream, an async resource and a promise before the bytes reach us; a reply read whole
// into memory needs none of them.

export type ReplyHeaders = Record<string, string | string[] | undefined>;

/** A body that is not kept (a redirect's, a reply to retry) is read up to this much, then its connection dropped. */
const SKIPPED_BODY_BYTES = 128 * 1024;

export interface ReaderLimits {
  signal: AbortSignal;
  /** Bytes on the wire. */
  maxBytes: number;
  /** From the headers to the body's end. */
  bodyTimeoutMs: number;
  /** The error a body that overruns bodyTimeoutMs ends with. */
  bodyTimeout: () => Error;
  /** Whether a reply with this status keeps its body (otherwise it is read and dropped). */
  keepBody: (status: number) => boolean;
}

export interface RawReply {
  status: number;
  headers: ReplyHeaders;
  /** Whether the body was kept (keepBody); when not, data is empty. */
  kept: boolean;
  data: Buffer;
  /** Bytes on the wire. */
  received: number;
  /** performance.now() when the headers came, and when the body ended. */
  headersAt: number;
  endedAt: number;
}

type Controller = Dispatcher.DispatchController;

export class ReplyReader implements Dispatcher.DispatchHandler {
  /** Settles once the body has ended (or the exchange failed). */
  readonly done: Promise<RawReply>;
  /** The status once the headers came (an error after them still knows it). */
  status: number | undefined;
  readonly #limits: ReaderLimits;
  #resolve!: (reply: RawReply) => void;
  #reject!: (error: unknown) => void;
  #controller: Controller | undefined;
  #headers: ReplyHeaders = {};
  #headersAt = 0;
  #keep = true;
  #chunks: Buffer[] = [];
  #received = 0;
  #timer: NodeJS.Timeout | undefined;
  #settled = false;
  readonly #onAbort = () => this.#abort(this.#limits.signal.reason);

  constructor(limits: ReaderLimits) {
    this.#limits = limits;
    this.done = new Promise<RawReply>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    if (limits.signal.aborted) this.#fail(limits.signal.reason);
    else limits.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The reply's headers, once they came ({} before). */
  get headers(): ReplyHeaders {
    return this.#headers;
  }

  /** performance.now() when the headers came (0 before). */
  get headersAt(): number {
    return this.#headersAt;
  }

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(new Error('The exchange was already given up'));
  }

  onResponseStart(controller: Controller, statusCode: number, headers: ReplyHeaders): void {
    // 1xx replies are interim: the final one follows.
    if (statusCode < 200 || this.#settled) return;
    this.status = statusCode;
    this.#headers = headers;
    this.#headersAt = performance.now();
    this.#keep = this.#limits.keepBody(statusCode);
    const declared = Number(headerValue(headers, 'content-length'));
    if (this.#keep && Number.isFinite(declared) && declared > this.#limits.maxBytes) {
      this.#abort(tooLarge(this.#limits.maxBytes));
      return;
    }
    this.#timer = setTimeout(() => this.#abort(this.#limits.bodyTimeout()), this.#limits.bodyTimeoutMs);
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    if (this.#settled) return;
    this.#received += chunk.length;
    if (!this.#keep) {
      // Enough of a body nobody reads: the reply is known, the connection is dropped rather than drained.
      if (this.#received > SKIPPED_BODY_BYTES) {
        this.#end();
        this.#controller?.abort(new Error('A skipped body was too large to drain'));
      }
      return;
    }
    if (this.#received > this.#limits.maxBytes) this.#abort(tooLarge(this.#limits.maxBytes));
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.#end();
  }

  onResponseError(_controller: Controller | undefined, error: Error): void {
    this.#fail(error);
  }

  #end(): void {
    if (this.#settled || this.status === undefined) return;
    const chunks = this.#chunks;
    // A reply in one chunk is that chunk (a socket read of its own), not a copy.
    const data =
      chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? Buffer.alloc(0) : Buffer.concat(chunks, this.#received);
    this.#settle();
    this.#resolve({
      status: this.status,
      headers: this.#headers,
      kept: this.#keep,
      data,
      received: this.#received,
      headersAt: this.#headersAt,
      endedAt: performance.now(),
    });
  }

  /** Stops the exchange with `reason` (the connection is closed by undici) and rejects with it. */
  #abort(reason: unknown): void {
    if (this.#settled) return;
    this.#fail(reason);
    this.#controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#reject(error);
  }

  #settle(): void {
    this.#settled = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#limits.signal.removeEventListener('abort', this.#onAbort);
  }
}
