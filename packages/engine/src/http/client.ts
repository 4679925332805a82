import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { EngineError, abortError } from '../errors.ts';
import { decodeBody, headerValue } from './body.ts';
import { CircuitBreaker } from './breaker.ts';
import type { HttpExchange, Redactor } from './exchange.ts';
import { type ConnectTimings, OutboundGuard, type Resolver } from './guard.ts';
import { type RawReply, type ReplyHeaders, ReplyReader } from './reply-reader.ts';
import type { ParsedHttpSettings } from './settings.ts';

// One upstream request as the connector sees it: checked by the guard (each redirect again, at most 5, followed by
// hand), sent through an undici Agent whose sockets are checked at connect time, retried for idempotent methods on
// a connect error or a 502/503/504, refused at once while the host's circuit is open, its reply read with the size
// cap and the whole-body time limit. Headers and credentials are sent in full only to the request's own origin.

export interface Outgoing {
  method: string;
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

export type { ReplyHeaders } from './reply-reader.ts';

export interface Reply {
  status: number;
  headers: ReplyHeaders;
  data: Buffer;
  /** The URL that answered (after redirects, without the credential). */
  url: URL;
}

export interface SendOptions {
  kind: HttpExchange['kind'];
  signal: AbortSignal;
  redactor: Redactor;
  onExchange?: ((exchange: HttpExchange) => void) | undefined;
  /** The origin that gets the full headers and the credential; a redirect elsewhere gets neither, from then on. */
  home: string;
  /** Puts the credential on a hop to `home`: in its headers, or in the query of the URL it answers (a copy). */
  authorize?: ((url: URL, headers: Record<string, string>) => URL) | undefined;
  followRedirects: boolean;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const retryStatuses = new Set([502, 503, 504]);
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const crossOriginHeaders = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);
const maxRedirects = 5;
const previewChars = 1000;

/** Errors worth another try (the request never got an answer): connection refused, reset, connect timeout. */
const retryableErrors = new WeakSet<Error>();
/** Errors that say the host is unwell (count towards its circuit breaker). */
const hostFailures = new WeakSet<Error>();

const connectCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function errorCode(error: unknown): string | undefined {
  if (error instanceof AggregateError) return errorCode(error.errors[0]);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function mark(error: EngineError, retryable: boolean, hostFailure: boolean): EngineError {
  if (retryable) retryableErrors.add(error);
  if (hostFailure) hostFailures.add(error);
  return error;
}

function transportError(error: unknown): EngineError {
  const code = errorCode(error);
  const options = { cause: error };
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return mark(new EngineError('TIMEOUT', 'The web API did not accept the connection in time', options), true, true);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return mark(new EngineError('TIMEOUT', 'The web API did not answer in time', options), false, true);
    case 'UND_ERR_INVALID_ARG':
    case 'ERR_INVALID_CHAR':
      return new EngineError('QUERY_FAILED', 'The request is not valid HTTP', options);
    default:
      return mark(
        new EngineError('UNREACHABLE', 'The web API could not be reached', options),
        code !== undefined && connectCodes.has(code),
        true,
      );
  }
}

function redirected(previous: Outgoing, status: number, url: URL): Outgoing {
  const toGet =
    (status === 303 && previous.method !== 'HEAD') ||
    ((status === 301 || status === 302) && previous.method === 'POST');
  if (!toGet) return { ...previous, url };
  const headers = { ...previous.headers };
  delete headers['content-type'];
  return { method: 'GET', url, headers };
}

function newRecord(hop: Outgoing, options: SendOptions, attempt: number): HttpExchange {
  const { redactor } = options;
  return {
    kind: options.kind,
    attempt,
    method: hop.method,
    url: redactor.url(hop.url),
    requestHeaders: redactor.headers(hop.headers),
    ...(hop.body !== undefined && options.kind !== 'token' ? { requestBody: redactor.text(hop.body) } : {}),
    timings: { totalMs: 0 },
    bytes: { sent: hop.body === undefined ? 0 : Buffer.byteLength(hop.body), received: 0 },
  };
}

const bodyTimeout = () =>
  mark(new EngineError('TIMEOUT', 'The web API did not send its whole reply in time'), false, true);

function isJson(headers: ReplyHeaders): boolean {
  return /json/i.test(headerValue(headers, 'content-type') ?? '');
}

/** When a hop started, when its URL had passed the guard, and how long its connection took to open (if it did). */
interface HopClock {
  started: number;
  checkedAt: number;
  connect: ConnectTimings;
}

/** The reply's part of an exchange's record: status, headers (masked), timings, and a preview of what is not JSON. */
function recordReply(record: HttpExchange, reader: ReplyReader, options: SendOptions, clock: HopClock, raw?: RawReply) {
  const { dnsMs = 0, connectMs } = clock.connect;
  record.status = reader.status;
  record.replyHeaders = options.redactor.headers(reader.headers);
  record.timings.dnsMs = clock.checkedAt - clock.started + dnsMs;
  if (connectMs !== undefined) record.timings.connectMs = connectMs;
  record.timings.headersMs = Math.max(0, reader.headersAt - clock.checkedAt - dnsMs - (connectMs ?? 0));
  if (!raw?.kept) return;
  record.timings.bodyMs = raw.endedAt - raw.headersAt;
  record.bytes.received = raw.received;
  // A token reply is never shown: it carries the access token.
  if (raw.status >= 400 || (options.kind !== 'token' && !isJson(raw.headers)))
    record.replyPreview = options.redactor.text(
      raw.data
        .subarray(0, previewChars * 4)
        .toString('utf8')
        .slice(0, previewChars),
    );
}

export class HttpClient {
  readonly #settings: ParsedHttpSettings;
  readonly #guard: OutboundGuard;
  #agent: Promise<Agent> | undefined;
  /** The Agent once made: later requests take it without awaiting its promise again. */
  #ready: Agent | undefined;
  readonly #breaker: CircuitBreaker;
  readonly #connectTimings = new AsyncLocalStorage<ConnectTimings>();

  constructor(settings: ParsedHttpSettings, resolve?: Resolver) {
    this.#settings = settings;
    this.#guard = new OutboundGuard({ allowedHosts: settings.allowedHosts, ...(resolve ? { resolve } : {}) });
    this.#breaker = new CircuitBreaker(settings.breaker);
  }

  /** The Agent, made on the first request: undici (~5 MB of heap) is loaded only by servers that call web APIs. */
  #dispatcher(): Promise<Agent> {
    this.#agent ??= import('undici').then(({ Agent, buildConnector }) => {
      const { connectTimeoutMs, maxConnections, headersTimeoutMs } = this.#settings;
      return (this.#ready = new Agent({
        connect: this.#guard.connector(buildConnector, { connectTimeoutMs, timings: this.#connectTimings }),
        connections: maxConnections,
        headersTimeout: headersTimeoutMs,
        // The reply reader bounds the whole body by bodyTimeoutMs from its headers, which bounds every gap in it too:
        // undici's own timer between chunks (a new one each exchange, kept in its list for up to a second) is off.
        bodyTimeout: 0,
      }));
    });
    return this.#agent;
  }

  get breaker(): CircuitBreaker {
    return this.#breaker;
  }

  /** Sends a request, following redirects when asked; answers the last reply, whatever its status. */
  async send(request: Outgoing, options: SendOptions): Promise<Reply> {
    let current = request;
    // Once a hop leaves the home origin, no later hop is trusted, even one that comes back.
    let crossed = false;
    for (let redirects = 0; ; redirects += 1) {
      crossed ||= current.url.origin !== options.home;
      const trusted = !crossed;
      const headers = trusted
        ? { ...current.headers }
        : Object.fromEntries(Object.entries(current.headers).filter(([name]) => crossOriginHeaders.has(name)));
      headers['user-agent'] ??= 'DataLab';
      // The credential goes on the hop's own headers, and into a copy of the URL when it rides in the query.
      const url = trusted && options.authorize ? options.authorize(current.url, headers) : current.url;
      const hop: Outgoing = { ...current, url, headers };
      const reply = await this.#withRetries(hop, options);
      const location = headerValue(reply.headers, 'location');
      if (!options.followRedirects || !redirectStatuses.has(reply.status) || !location) {
        // The URL that answered, without the credential a query may have carried (the reply is this call's own).
        reply.url = current.url;
        return reply;
      }
      if (redirects >= maxRedirects)
        throw new EngineError('UPSTREAM_FAILED', `The web API redirected more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(location, current.url);
      } catch {
        throw new EngineError('UPSTREAM_FAILED', 'The web API redirected to an invalid URL');
      }
      current = redirected(current, reply.status, next);
    }
  }

  async #withRetries(hop: Outgoing, options: SendOptions): Promise<Reply> {
    const retries = idempotentMethods.has(hop.method) ? this.#settings.retries : 0;
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt > retries;
      try {
        const reply = await this.#hop(hop, options, attempt, !last);
        if (last || !retryStatuses.has(reply.status)) return reply;
      } catch (error) {
        if (last || !(error instanceof Error) || !retryableErrors.has(error)) throw error;
      }
      await this.#backoff(attempt, options.signal);
    }
  }

  async #backoff(attempt: number, signal: AbortSignal): Promise<void> {
    const base = this.#settings.retryDelayMs * 2 ** (attempt - 1);
    try {
      await sleep(base + Math.random() * base * 0.5, undefined, { signal });
    } catch {
      throw abortError(signal);
    }
  }

  /** One request and its reply, recorded as one exchange and counted by the host's circuit breaker. */
  async #hop(hop: Outgoing, options: SendOptions, attempt: number, mayRetry: boolean): Promise<Reply> {
    const started = performance.now();
    // Recorded (its secrets masked) only for someone who asked to see the exchanges.
    const record = options.onExchange ? newRecord(hop, options, attempt) : undefined;
    const clock: HopClock | undefined = record ? { started, checkedAt: started, connect: {} } : undefined;
    const host = hop.url.host;
    let entered = false;
    let reader: ReplyReader | undefined;
    let raw: RawReply | undefined;
    let failed = false;
    try {
      const lookup = this.#guard.checkUrl(hop.url);
      if (lookup) await lookup;
      if (clock) clock.checkedAt = performance.now();
      this.#breaker.enter(host);
      entered = true;
      const agent = this.#ready ?? (await this.#dispatcher());
      const { followRedirects } = options;
      const opened = (reader = new ReplyReader({
        signal: options.signal,
        maxBytes: this.#settings.maxReplyBytes,
        bodyTimeoutMs: this.#settings.bodyTimeoutMs,
        bodyTimeout,
        // A redirect that is followed, or a reply about to be retried, is read and dropped.
        keepBody: (status) =>
          !((followRedirects && redirectStatuses.has(status)) || (mayRetry && retryStatuses.has(status))),
      }));
      const dispatch = () =>
        agent.dispatch(
          {
            origin: hop.url.origin,
            path: hop.url.pathname + hop.url.search,
            method: hop.method as 'GET',
            headers: hop.headers,
            body: hop.body ?? null,
          },
          opened,
        );
      // Connect timings are only for the exchange's record: no async context otherwise.
      if (clock) this.#connectTimings.run(clock.connect, dispatch);
      else dispatch();
      raw = await opened.done;
      const data = decodeBody(raw.data, raw.headers, this.#settings.maxReplyBytes);
      return {
        status: raw.status,
        headers: raw.headers,
        data: data instanceof Buffer ? data : await data,
        url: hop.url,
      };
    } catch (error) {
      const mapped = this.#mapError(error, options.signal);
      // A host that answered stays healthy even when its reply was refused (too large, cancelled midway).
      failed = hostFailures.has(mapped);
      if (record) record.error = mapped.message;
      throw mapped;
    } finally {
      const status = reader?.status;
      if (entered) {
        if (failed || (status !== undefined && status >= 500)) this.#breaker.failure(host);
        else if (status !== undefined) this.#breaker.success(host);
        else this.#breaker.release(host);
      }
      if (record) {
        if (reader && clock && status !== undefined) recordReply(record, reader, options, clock, raw);
        record.timings.totalMs = performance.now() - started;
        options.onExchange?.(record);
      }
    }
  }

  #mapError(error: unknown, signal: AbortSignal): EngineError {
    if (error instanceof EngineError) return error;
    if (signal.aborted) return abortError(signal);
    return transportError(error);
  }

  async close(): Promise<void> {
    if (this.#agent) await (await this.#agent).close();
  }
}
