import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { redactDeep, redactSecrets } from '@datalab/contract/redact';
import { texts } from '@datalab/contract/texts';
import { textMessages } from '@datalab/contract/text';
import { AppError, notFound, payloadTooLarge, validation } from '../lib/errors.ts';
import { errorsFromIssues } from '../lib/validation-messages.ts';
import { isStoreUnavailable, storeUnavailable } from '../lib/store-errors.ts';

/** The longest path parameter the router takes (app.ts routerOptions); longer ones are refused with 414. */
export const MAX_PARAM_LENGTH = 200;

// One global handler, one reply shape (product §16). A 5xx never carries internals: its details go to
// the application log under the request id that the reply names.

function fromSchemaValidation(error: FastifyError & { validation: unknown[]; validationContext?: string }) {
  const issues = error.validation.map((item) => {
    const v = item as { keyword: string; instancePath: string; message: string; params: Record<string, unknown> };
    const path = v.instancePath.split('/').filter(Boolean);
    return { ...v.params, code: v.keyword, path, message: v.message } as unknown as z.core.$ZodIssue;
  });
  const context = error.validationContext === 'body' ? undefined : error.validationContext;
  return validation(errorsFromIssues(issues, context));
}

function toAppError(error: FastifyError, bodyLimit: number): AppError | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return fromSchemaValidation(error);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validation({ body: [`Malformed JSON: ${error.message}`] });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError({ status: 415, code: 'validation', title: 'Unsupported media type', detail: error.message });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return validation({ body: ['Invalid content length'] });
    // The router's refusals name the whole path in their own message: a pasted secret would come back.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError({
        status: 414,
        code: 'validation',
        title: `A part of the URL's path is longer than ${MAX_PARAM_LENGTH} characters`,
      });
    case 'FST_ERR_BAD_URL':
      return validation({ url: ['The URL is not valid: a percent-escape in its path is malformed'] });
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return validation({ body: [`Malformed JSON: ${error.message}`] });
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError({ status: error.statusCode, code: 'validation', title: error.message });
  }
  // The metadata store is down or cut off: 503, whatever step (authentication included) was reading it.
  if (isStoreUnavailable(error)) return storeUnavailable();
  return undefined;
}

/** A request the router refused before any route (Fastify's frameworkErrors): the one error reply too. */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known = toAppError(error, 0) ?? validation({ url: ['The URL is not valid'] });
  return sendError(request, reply, known);
}

/** The one error reply. Its texts are redacted (no token secret is echoed, whatever a message repeated). */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  reply.headers(error.headers);
  const title = redactSecrets(error.title);
  const body: Record<string, unknown> = { title, status: error.status, code: error.code };
  if (error.message !== error.title) body['detail'] = redactSecrets(error.message);
  if (error.errors) body['errors'] = redactDeep(error.errors);
  body['requestId'] = request.id;
  return reply.status(error.status).type('application/json; charset=utf-8').send(body);
}

/**
 * The keys down to the first string holding a NUL (no store keeps one; PostgreSQL refuses it), if any.
 * Runs on every API request: allocates nothing unless it finds one.
 */
function nulPath(value: unknown, depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = nulPath((value as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.unshift(key);
      return found;
    }
  }
  return undefined;
}

const API_OR_DATA = /^\/(api|data)\//;

/** The field a NUL was found in, as the 400 names it: `params.id`, `query.q`, `name` (body) or `body`. */
function nulField(request: FastifyRequest): string | undefined {
  // A NUL reaches the path or the query only percent-encoded (Node's parser refuses a raw one): without '%00' in
  // the URL there is nothing to look for there (the walk cost ~3 µs of a ~70 µs cached call).
  if (request.url.includes('%00')) {
    const inParams = nulPath(request.params);
    if (inParams) return ['params', ...inParams].join('.');
    const inQuery = nulPath(request.query);
    if (inQuery) return ['query', ...inQuery].join('.');
  }
  const inBody = nulPath(request.body);
  if (inBody) return inBody.join('.') || 'body';
  return undefined;
}

/** A route with a schema that declares no parameters, query or body, on methods that never carry a body. */
function takesNoInput(options: RouteOptions): boolean {
  const methods = Array.isArray(options.method) ? options.method : [options.method];
  const schema = options.schema;
  return (
    schema !== undefined &&
    schema.params === undefined &&
    schema.querystring === undefined &&
    schema.body === undefined &&
    !options.url.includes(':') &&
    !options.url.includes('*') &&
    methods.every((method) => method === 'GET' || method === 'HEAD')
  );
}

/** Longest URL (path and query) answered; longer is 414. Node's parser refuses more than 16 KB of head. */
export const URL_MAX_LENGTH = 8192;

/** 414 for a URL longer than URL_MAX_LENGTH (app.ts checks every request). */
export const refuseLongUrl = (request: FastifyRequest): AppError | undefined =>
  request.url.length > URL_MAX_LENGTH
    ? new AppError({
        status: 414,
        code: 'validation',
        title: 'URI too long',
        detail: `The URL exceeds ${URL_MAX_LENGTH} characters.`,
      })
    : undefined;

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a head over the size limit,
 * malformed HTTP): answered in the reply shape of product §16, on the raw socket.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let title = 'Bad request';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') [status, title] = [408, 'Request timeout'];
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const raw: unknown = error.rawPacket; // a Buffer at run time, whatever the type says
    const packet = Buffer.isBuffer(raw) ? raw.toString('latin1') : '';
    const lineEnd = packet.indexOf('\r\n');
    const requestLineTooLong = /^[A-Z]+ /.test(packet) && (lineEnd < 0 || lineEnd > URL_MAX_LENGTH);
    [status, title] = requestLineTooLong ? [414, 'URI too long'] : [431, 'Request header fields too large'];
  }
  const body = JSON.stringify({ title, status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The JSON not-found reply; app.ts puts the single-page app in front of it for pages. */
export async function notFoundReply(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, notFound());
}

export default fp(
  async (app: FastifyInstance) => {
    // Every field's schema refuses control characters too; this net catches what no schema types (ids in paths). A
    // callback hook, not an async one, on every route that can take input: a route whose schema declares no
    // parameters, query or body and whose method carries no body (GetCurrentUser) has nothing to look at, and each
    // hook is a step of Fastify's hook runner on each of its requests (bench/RESULTS.md, GetCurrentUser).
    const refuseNul = (request: FastifyRequest, _reply: FastifyReply, done: (error?: AppError) => void) => {
      const field = API_OR_DATA.test(request.url) ? nulField(request) : undefined;
      done(field === undefined ? undefined : validation({ [field]: [textMessages.controlCharacter] }));
    };
    app.addHook('onRoute', (options) => {
      if (takesNoInput(options)) return;
      const own = options.preValidation;
      options.preValidation = own === undefined ? [refuseNul] : [refuseNul, ...(Array.isArray(own) ? own : [own])];
    });
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      const known = toAppError(error, request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576);
      if (known) {
        if (known.status >= 500) request.log.warn({ err: error }, known.title);
        return sendError(request, reply, known);
      }
      request.log.error({ err: error }, 'unhandled error');
      await app.appLog
        .write({
          level: 'error',
          category: 'request',
          message: error.message,
          requestId: request.id,
          userId: request.user?.id ?? null,
          details: { method: request.method, url: request.routeOptions.url ?? request.url, stack: error.stack },
        })
        .catch((logError: unknown) => request.log.error({ err: logError }, 'could not write the application log'));
      return sendError(
        request,
        reply,
        new AppError({ status: 500, code: 'internal', title: texts.generic.summary, detail: texts.generic.message }),
      );
    });
  },
  { name: 'errors', dependencies: ['app-log'] },
);
