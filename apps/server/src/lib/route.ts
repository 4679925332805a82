import type { CallDefinition } from '@datalab/contract/call';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuthUser } from '../plugins/auth.ts';

// Registers one /api call from its contract definition, with the fixed pipeline of STYLE.md habit 4:
// authenticate (onRequest, before the body is read) → validate (schemas) → handler, which authorizes
// against the object itself, calls the service and returns the presenter's output: the response
// schema's app form (Dates for date-times), which the serializer encodes to the wire form.

type Out<T> = [NonNullable<T>] extends [never] ? undefined : NonNullable<T> extends z.ZodType ? z.output<NonNullable<T>> : undefined;

export interface RouteContext<C extends CallDefinition> {
  request: FastifyRequest;
  reply: FastifyReply;
  user: AuthUser;
  params: Out<C['params']>;
  query: Out<C['query']>;
  body: Out<C['body']>;
}

export function route<C extends CallDefinition>(
  app: FastifyInstance,
  call: C,
  handler: (context: RouteContext<C>) => Promise<z.output<C['response']>>,
) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    schema: {
      tags: [call.tag],
      summary: call.summary,
      security: [{ bearer: [] }],
      ...(call.params ? { params: call.params } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      ...(call.body ? { body: call.body } : {}),
      response: { [call.status ?? 200]: call.response },
    },
    onRequest: (request, _reply, done) => {
      app.authenticate(request).then(() => done(), done);
    },
    handler: async (request, reply) => {
      const user = request.user;
      if (!user) throw new Error('authenticate did not run');
      reply.status(call.status ?? 200);
      return handler({
        request,
        reply,
        user,
        params: request.params as Out<C['params']>,
        query: request.query as Out<C['query']>,
        body: request.body as Out<C['body']>,
      });
    },
  });
}
