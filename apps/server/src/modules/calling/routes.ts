import { contentTypes, type Format } from '@datalab/engine';
import { EXCHANGE_HEADER } from '@datalab/contract/api/web-api';
import { messages } from '@datalab/contract/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../lib/errors.ts';
import { forCaller, mapEngineErrors } from '../../lib/engine-errors.ts';
import type { RouteAccess } from '../access/route-access.ts';
import type { DataSourceDefinition } from '../data-sources/definition.service.ts';
import { ExchangeLog } from '../data-sources/web-api-assets.service.ts';
import { DefinitionCache } from './definitions.ts';
import { TRUNCATED_TRAILER, acceptsTrailers, contentDisposition, negotiateFormat } from './negotiation.ts';
import { DATA_API_PREFIX, callableAssets, openApiDocument } from './openapi.ts';
import { DataCall, type CallServices } from './call.service.ts';
import { serverTiming } from './server-timing.ts';
import { callExport, isAuthor, type CallingDeps } from './service.ts';

// The calling layer (product §15): /data/v1/{dataAssetUid} answers GET (values in the query string) and POST (a JSON
// object of values), and /data/v1/openapi.json describes what the caller may call. Not /api routes: they take the
// portal's access tokens (app.authenticate) and authorize through the same policy, as the declaration says.

/** Declared as an /api route would be (the service enforces it through policy.ts, with the definition it loads). */
export const CALL_ACCESS: RouteAccess = { collection: 'call', dataAsset: { params: 'dataAssetUid' } };

const authenticate =
  (app: FastifyInstance) => (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    app.authenticate(request).then(() => done(), done);
  };

/** The raw values: the query string without `format`, or the POST body, which must be a JSON object. */
function rawValues(request: FastifyRequest): Record<string, unknown> {
  if (request.method === 'GET') {
    const { format: _format, ...values } = (request.query ?? {}) as Record<string, unknown>;
    return values;
  }
  const body: unknown = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('body', 'The body must be a JSON object of parameter values');
  }
  return body as Record<string, unknown>;
}

/** Aborts the run when the client goes away before the reply is written (a late 'close' after the end is normal). */
function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}

/** Server-Timing with what was measured so far; set before the reply (or the error reply) leaves. */
function reportTimings(call: DataCall, reply: FastifyReply) {
  const value = serverTiming(call.timings);
  if (value) reply.header('server-timing', value);
}

export default async function callingRoutes(app: FastifyInstance) {
  const deps: CallingDeps = {
    db: app.db,
    access: app.access,
    connectors: app.connectors,
    sqlRuntime: app.sqlRuntime,
    cache: app.resultCache,
    maxExportRows: app.config.maxExportRows,
    definitions: new DefinitionCache(),
  };
  const services: CallServices = { calling: deps, limits: app.callLimits, usage: app.usage };

  app.get(
    `${DATA_API_PREFIX}/openapi.json`,
    { onRequest: authenticate(app), schema: { hide: true } },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw new Error('authenticate did not run');
      await app.callLimits.consume(reply, user);
      return openApiDocument(await callableAssets(app.db, app.access, user), app.config.callingLayerUrl);
    },
  );

  /**
   * Answers a call the caller may make, in the format asked for; the call writes its usage record. `author`: the
   * caller is an Editor or Owner of the asset's collection, signed in to the portal (no token), who may read the
   * upstream exchanges of a Web API call (EXCHANGE_HEADER; ignored for anyone else) and the database's own error text.
   */
  async function answer(
    call: DataCall,
    definition: DataSourceDefinition,
    request: FastifyRequest,
    reply: FastifyReply,
    author: boolean,
  ) {
    const format: Format = negotiateFormat(
      (request.query as Record<string, unknown>)['format'],
      request.headers.accept,
    );
    call.record.format = format;
    const values = call.values(definition, rawValues(request));
    const signal = abortOnClose(reply);
    reply.header('content-disposition', contentDisposition(definition.name, format));
    if (format === 'json') {
      // The developer view asks for the upstream exchanges of a Web API asset (EXCHANGE_HEADER).
      const exchanges = author && request.headers[EXCHANGE_HEADER] === '1' ? new ExchangeLog() : undefined;
      const result = await call.json(definition, values, signal, exchanges);
      reportTimings(call, reply);
      return reply.type(contentTypes.json).send(result.body);
    }
    const stream = await mapEngineErrors(() => callExport(deps, definition, values, format, call.timings, signal));
    reportTimings(call, reply);
    // A cut at the row limit is also the file's last line (engine writers/truncation.ts); a client that accepts
    // trailers learns it without reading the body. A failed export sends none: its body is cut off instead.
    if (acceptsTrailers(request.headers.te)) {
      reply.trailer(TRUNCATED_TRAILER, async () => String((await stream.done).truncated));
    }
    stream.done.then(
      (stats) => call.finish({ rows: stats.rows, bytes: stats.bytes }),
      (error: unknown) => {
        // Headers are out: the reply is cut off (the body was destroyed), never a silently truncated file.
        request.log.error({ err: error, dataAsset: definition.uid, format }, 'export failed after streaming began');
        call.fail(error);
      },
    );
    return reply.type(contentTypes[format]).send(stream.body);
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const user = request.user;
    if (!user) throw new Error('authenticate did not run');
    const { dataAssetUid: uid } = request.params as { dataAssetUid: string };
    const call = new DataCall(services, { user, uid, channel: 'data-api', requestId: request.id });
    let definition: DataSourceDefinition | undefined;
    let author = false;
    try {
      definition = await call.authorize(reply);
      author = await isAuthor(deps, user, definition.collection.id);
      return await answer(call, definition, request, reply, author);
    } catch (failure) {
      const error = author ? failure : forCaller(failure);
      if (error !== failure) await logDatabaseText(request, user.id, definition, failure);
      call.fail(error);
      reportTimings(call, reply);
      throw error;
    }
  }

  /** The database's own text of a failed call whose caller got the generic reply: for administrators, by request id. */
  async function logDatabaseText(
    request: FastifyRequest,
    userId: number,
    definition: DataSourceDefinition | undefined,
    failure: unknown,
  ) {
    const text = failure instanceof Error ? failure.message : String(failure);
    const asset = definition ? `${definition.name} (${definition.uid})` : 'a data asset';
    await app.appLog
      .write({
        level: 'warn',
        category: 'call',
        message: `Call of ${asset}: the data source failed: ${text}`,
        requestId: request.id,
        userId,
        details: { dataAsset: definition?.uid ?? null, collectionId: definition?.collection.id ?? null },
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'could not write the application log'));
  }

  const config = { access: CALL_ACCESS };
  // No automatic HEAD route: a HEAD would run the query (an export whole) only to drop the body.
  const options = { onRequest: authenticate(app), config, schema: { hide: true }, exposeHeadRoute: false };
  app.get(`${DATA_API_PREFIX}/:dataAssetUid`, options, handle);
  app.post(`${DATA_API_PREFIX}/:dataAssetUid`, options, handle);
  // A call without an asset's uid (`/data/v1`, `/data/v1/`) is bad input, said as such, not a missing page.
  const noUid = async () => {
    throw invalid('dataAssetUid', messages.noUidProvided);
  };
  app.get(DATA_API_PREFIX, { ...options, config: { access: { signedIn: true } } }, noUid);
  app.post(DATA_API_PREFIX, { ...options, config: { access: { signedIn: true } } }, noUid);
}
