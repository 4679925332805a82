import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { AppError } from '../../lib/errors.ts';
import type { CallServices } from '../calling/call.service.ts';
import { DefinitionCache } from '../calling/service.ts';
import { answerFast, fastMessage } from './fast-path.ts';
import { COLUMNS_KEPT_MS, createMcpServer, mcpCalls, type McpContext } from './server.ts';
import { clientOfSession, sessionOfClient } from './session.ts';

// The MCP endpoint (Streamable HTTP, stateless): POST /mcp answers JSON-RPC in JSON, one MCP server and transport
// of the official SDK per request (or none: the fast path below). Every request authenticates afresh (a Data Lab
// token or an access token of the OIDC provider for the API's audience, in the Authorization header), so nothing of
// a session outlives a revoked token. A request without a valid token is a 401 naming the protected resource metadata (RFC 9728), which MCP
// clients read to find where to sign in. Host and Origin must be the public URL's (DNS rebinding). Off with
// MCP_ENABLED=false: then none of these routes exist. Once the caller is known, a plain tools/call or tools/list
// takes the fast path (fast-path.ts: the same calls, the same answer, without the SDK's per-message work) unless
// the `fastPath` option (MCP_FAST_PATH) is off; everything else goes through the SDK.

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

const hostnameOf = (host: string) =>
  host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;

/** Whether Host and Origin name this server as its public URL does (any loopback name when it is a loopback one). */
export function sameSite(publicUrl: URL, host: string | undefined, origin: string | undefined): boolean {
  const loopback = LOOPBACK.has(publicUrl.hostname);
  const fits = (candidate: string) =>
    candidate.toLowerCase() === publicUrl.host.toLowerCase() ||
    (loopback && LOOPBACK.has(hostnameOf(candidate.toLowerCase())));
  if (!host || !fits(host)) return false;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return (
    parsed.origin === publicUrl.origin || (loopback && parsed.protocol === publicUrl.protocol && fits(parsed.host))
  );
}

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

export interface McpRoutesOptions {
  /** Plain tools/call and tools/list without the SDK's per-message work (default: MCP_FAST_PATH). */
  fastPath?: boolean;
}

export default async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions = {}) {
  const { config } = app;
  if (!config.mcp.enabled) return;
  const fastPath = options.fastPath ?? config.mcp.fastPath;
  const publicUrl = new URL(config.publicUrl);
  const resource = `${config.publicUrl}${MCP_PATH}`;
  const metadataUrl = `${config.publicUrl}${RESOURCE_METADATA_PATH}${MCP_PATH}`;
  const services: CallServices = {
    calling: {
      db: app.db,
      access: app.access,
      connectors: app.connectors,
      sqlRuntime: app.sqlRuntime,
      cache: app.resultCache,
      maxExportRows: config.maxExportRows,
      definitions: new DefinitionCache(),
    },
    limits: app.callLimits,
    usage: app.usage,
  };
  const columns = new LRUCache<string, { name: string; type: string }[]>({ max: 2_000, ttl: COLUMNS_KEPT_MS });

  // RFC 9728: where MCP clients learn which authorization server signs tokens for this resource.
  const metadata = {
    resource,
    authorization_servers: [config.oidc.issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: config.oidc.scopes,
    resource_name: `${PRODUCT_NAME} data assets (MCP)`,
    resource_documentation: `${config.publicUrl}/docs/mcp`,
  };
  const metadataOptions = { schema: { hide: true } };
  app.get(RESOURCE_METADATA_PATH, metadataOptions, async (_request, reply) =>
    reply.header('cache-control', 'max-age=3600').send(metadata),
  );
  app.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, metadataOptions, async (_request, reply) =>
    reply.header('cache-control', 'max-age=3600').send(metadata),
  );

  function challenge(reply: FastifyReply, error: AppError, tokenSent: boolean) {
    const invalid = tokenSent ? ', error="invalid_token"' : '';
    return reply
      .code(401)
      .header('www-authenticate', `Bearer resource_metadata="${metadataUrl}"${invalid}`)
      .send({ title: error.title, status: 401, code: error.code, requestId: reply.request.id });
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    if (!sameSite(publicUrl, request.headers.host, request.headers.origin)) {
      return reply.code(403).send(jsonRpcError(-32000, `Forbidden: the Host or Origin is not ${publicUrl.origin}`));
    }
    let user;
    try {
      user = await app.authenticate(request);
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        return challenge(reply, error, request.headers.authorization !== undefined);
      }
      throw error;
    }
    const body = request.body as { method?: unknown; params?: { clientInfo?: { name?: unknown; version?: unknown } } };
    const initialize = body?.method === 'initialize';
    const sessionHeader = request.headers['mcp-session-id'];
    const client = initialize
      ? clientLabel(body.params?.clientInfo)
      : clientOfSession(typeof sessionHeader === 'string' ? sessionHeader : undefined);
    const context: McpContext = {
      services,
      access: app.access,
      user,
      requestId: request.id,
      client,
      maxRows: config.mcp.maxRows,
      headers: { headers: (values) => reply.headers(values) },
      version: '1',
      columns,
    };
    const calls = mcpCalls(context);
    const fast = fastPath ? fastMessage(request.body, request.headers) : undefined;
    if (fast)
      return reply
        .code(200)
        .header('content-type', 'application/json')
        .send(Buffer.from(await answerFast(calls, fast)));
    const server = createMcpServer(context, calls);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    // Not closed after the reply: both hold nothing past it (no timer, no stream), and closing costs an error
    // object per pending request map; they are garbage once the reply is written.
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const webRequest = new Request(resource, { method: 'POST', headers });
    const response = await transport.handleRequest(webRequest, { parsedBody: request.body });
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    // The client's self-description travels in the session id: no state is kept here between requests.
    if (initialize && response.status === 200 && client) reply.header('mcp-session-id', sessionOfClient(client));
    const payload = Buffer.from(await response.arrayBuffer());
    return reply.code(response.status).send(payload.length > 0 ? payload : undefined);
  }

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(jsonRpcError(-32000, 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST'));

  const routeOptions = { schema: { hide: true } };
  app.post(MCP_PATH, routeOptions, handle);
  app.get(MCP_PATH, { ...routeOptions, exposeHeadRoute: false }, notAllowed);
  app.delete(MCP_PATH, routeOptions, notAllowed);
}

/** "name/version" of an MCP client's clientInfo, bounded and printable. */
function clientLabel(info: { name?: unknown; version?: unknown } | undefined): string | undefined {
  if (!info || typeof info.name !== 'string') return undefined;
  const version = typeof info.version === 'string' ? `/${info.version}` : '';
  // eslint-disable-next-line no-control-regex
  const label = `${info.name}${version}`.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100);
  return label || undefined;
}
