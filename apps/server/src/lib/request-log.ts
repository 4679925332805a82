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

/**
 * The "request completed" line, as `log.info(requestLine(…), 'request completed')` writes it, byte for byte
 * (request-log.test.ts compares the two), written straight to the logger's stream: pino's generic path
 * (serializer and redaction lookups per key) cost twice as much, once per request.
 */
function writeCompletedLine(log: FastifyBaseLogger, request: FastifyRequest, reply: FastifyReply) {
  const internals = log as unknown as PinoInternals;
  if (internals.levelVal > INFO) return;
  const userId = request.user?.id;
  const address = request.ip;
  const line =
    `{"level":${INFO},"time":${Date.now()}${internals[pino.symbols.chindingsSym]},"method":${json(request.method)}` +
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
    logController: new RequestLogController(
      config.logRequests && level <= LEVELS.info!,
      config.logRequests && level <= LEVELS.debug!,
    ),
  } satisfies FastifyServerOptions;
}
