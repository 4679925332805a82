import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { texts } from '@datalab/contract/texts';
import { AppError, notFound, payloadTooLarge, validation } from '../lib/errors.ts';
import { errorsFromIssues } from '../lib/validation-messages.ts';

// One global handler, one reply shape (DESIGN §7). A 5xx never carries internals: its details go to
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
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return validation({ body: [`Malformed JSON: ${error.message}`] });
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError({ status: error.statusCode, code: 'validation', title: error.message });
  }
  return undefined;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  reply.headers(error.headers);
  const body: Record<string, unknown> = { title: error.title, status: error.status, code: error.code };
  if (error.message !== error.title) body['detail'] = error.message;
  if (error.errors) body['errors'] = error.errors;
  body['requestId'] = request.id;
  return reply.status(error.status).type('application/json; charset=utf-8').send(body);
}

/** The JSON not-found reply; app.ts puts the single-page app in front of it for pages. */
export async function notFoundReply(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, notFound());
}

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      const known = toAppError(error, app.initialConfig.bodyLimit ?? 1_048_576);
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
