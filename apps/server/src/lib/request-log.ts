import type { Bindings, ChildLoggerOptions } from 'pino';
import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino, { type DestinationStream } from 'pino';

// The server's logger and its one line per completed request:
//   {"level":30,"time":…,"reqId":"…","method":"GET","path":"/api/…","status":200,"durationMs":1.234,
//    "userId":7,"remoteAddress":"127.0.0.1","msg":"request completed"}
// The path never carries the query string (a query can hold secrets), here or in any other line that
// names a request. Health probes are never logged. userId is absent for anonymous requests.

/** What looks like a Data Lab token (or most of one) in a path. */
const TOKEN_LIKE = /dl[pc]_[0-9A-Za-z]{8,}/g;

/**
 * A URL's path without its query string, and without anything shaped like a Data Lab token (someone pasted one
 * into a path): no token reaches a log line. Tokens in a query string are refused before any route (plugins/auth.ts).
 */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.includes('dl') ? path.replace(TOKEN_LIKE, '[token]') : path;
}

const LEVELS = pino.levels.values;
const isProbe = (request: FastifyRequest) => request.url.startsWith('/health/');

export class RequestLogController extends LogController {
  readonly #lines: boolean;
  readonly #incoming: boolean;

  /**
   * @param lines whether completed requests are logged (LOG_REQUESTS, at a level that shows info)
   * @param incoming whether arriving requests are logged too (LOG_REQUESTS at debug or trace)
   */
  constructor(lines: boolean, incoming: boolean) {
    super({ disableRequestLogging: isProbe });
    this.#lines = lines;
    this.#incoming = incoming;
  }

  override incomingRequest(request: FastifyRequest) {
    if (this.#incoming && !isProbe(request))
      request.log.debug({ method: request.method, path: pathOf(request.url) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      if (!isProbe(request)) reply.log.error({ ...requestLine(request, reply), err: error }, 'request errored');
      return;
    }
    if (this.#lines && !isProbe(request)) writeCompletedLine(reply.log, request, reply);
  }

  override routeNotFound(request: FastifyRequest) {
    if (this.#lines) request.log.info({ method: request.method, path: pathOf(request.url) }, 'route not found');
  }
}

/** Flat primitives only: pino writes them without serializers or redaction. */
export function requestLine(request: FastifyRequest, reply: FastifyReply) {
  return {
    method: request.method,
    path: pathOf(request.url),
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
    userId: request.user?.id,
    remoteAddress: request.ip,
  };
}

const INFO = LEVELS.info!;
const json = JSON.stringify;

/** What pino exposes of a logger through `pino.symbols`: its bindings as JSON text, and its stream. */
interface PinoInternals {
  levelVal: number;
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.streamSym]: DestinationStream;
}

type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger (`request.log`), made into pino's child with the request's bindings (its id) only when something
 * logs through it: most requests log nothing but their completed line, which writeCompletedLine writes itself. A pino
 * child on every request (a new logger object, its bindings turned to JSON) was a measurable part of a short request's
 * CPU (bench/RESULTS.md, GetCurrentUser). A route with a log level or serializers of its own gets pino's child at once.
 */
export class RequestLogger implements FastifyBaseLogger {
  readonly parent: FastifyBaseLogger;
  readonly bindings: Bindings;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings) {
    this.parent = parent;
    this.bindings = bindings;
  }

  get #log(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  /** pino's child, once something has logged through this logger (or changed its level). */
  get made(): FastifyBaseLogger | undefined {
    return this.#child;
  }

  #write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]) {
    const log = this.#log;
    Reflect.apply(log[level] as LogMethod, log, args);
  }

  get level() {
    return this.#log.level;
  }
  set level(level: string) {
    this.#log.level = level;
  }

  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#log.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a RequestLogger, or pino's child where the route changes the level or serializers. */
function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
  return options.level === undefined && options.serializers === undefined
    ? new RequestLogger(logger, bindings)
    : logger.child(bindings, options);
}

/** `,"key":value` for each binding, as pino writes a child's bindings (no serializer or formatter applies to them). */
function bindingsJson(bindings: Bindings): string {
  let text = '';
  for (const key in bindings) if (bindings[key] !== undefined) text += `,${json(key)}:${json(bindings[key])}`;
  return text;
}

/**
 * The "request completed" line, as `log.info(requestLine(…), 'request completed')` writes it, byte for byte
 * (request-log.test.ts compares the two), written straight to the logger's stream: pino's generic path
 * (serializer and redaction lookups per key) cost twice as much, once per request.
 */
function writeCompletedLine(log: FastifyBaseLogger, request: FastifyRequest, reply: FastifyReply) {
  // A request logger not made into pino's child yet writes with its parent's level and stream, and its own bindings.
  const unmade = log instanceof RequestLogger && log.made === undefined ? log : undefined;
  const writer = unmade?.parent ?? (log instanceof RequestLogger ? log.made : log);
  const internals = writer as unknown as PinoInternals;
  if (internals.levelVal > INFO) return;
  const bindings = internals[pino.symbols.chindingsSym] + (unmade ? bindingsJson(unmade.bindings) : '');
  const userId = request.user?.id;
  const address = request.ip;
  const line =
    `{"level":${INFO},"time":${Date.now()}${bindings},"method":${json(request.method)}` +
    `,"path":${json(pathOf(request.url))},"status":${reply.statusCode}` +
    `,"durationMs":${json(Math.round(reply.elapsedTime * 1000) / 1000)}` +
    (userId === undefined ? '' : `,"userId":${json(userId)}`) +
    (address === undefined ? '' : `,"remoteAddress":${json(address)}`) +
    `,"msg":"request completed"}\n`;
  internals[pino.symbols.streamSym].write(line);
}

/** Fastify's request serializer (used by error lines), with the path in place of the full URL. */
function serializeRequest(request: FastifyRequest) {
  return { method: request.method, path: pathOf(request.url), remoteAddress: request.ip };
}

export interface LoggingConfig {
  logLevel: string;
  logRequests: boolean;
}

/** The Fastify options that set up logging; tests pass their own destination to read the lines. */
export function loggingOptions(config: LoggingConfig, destination: DestinationStream) {
  const level = LEVELS[config.logLevel] ?? Infinity;
  return {
    logger: {
      level: config.logLevel,
      serializers: { req: serializeRequest },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
      stream: destination,
    },
    childLoggerFactory: requestLogger,
    logController: new RequestLogController(
      config.logRequests && level <= LEVELS.info!,
      config.logRequests && level <= LEVELS.debug!,
    ),
  } satisfies FastifyServerOptions;
}
