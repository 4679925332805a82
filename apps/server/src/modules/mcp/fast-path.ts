import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { McpCalls } from './server.ts';

// The fast path of the MCP endpoint: a plain `tools/call` or `tools/list` request, answered straight from the same
// calls (McpCalls) the SDK's server answers, without the SDK's per-request work (a Server and a transport, zod
// validation of the message and of the whole result, a Web Request and Response). It takes only what the SDK would
// accept as it is — one JSON-RPC request of exactly these shapes, with the headers the transport requires — and
// answers the same bytes (the oracle test compares both paths); everything else (initialize, ping, notifications,
// batches, anything the SDK would refuse or reshape) goes through the SDK. Authentication, the Host/Origin check
// and the caller's context come before the choice of path, in the route.

export type FastMessage =
  | { id: string | number; method: 'tools/call'; params: { name: string; arguments?: Record<string, unknown> } }
  | { id: string | number; method: 'tools/list' };

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const CALL_KEYS = new Set(['name', 'arguments']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const onlyKeys = (value: Record<string, unknown>, allowed: Set<string>) =>
  Object.keys(value).every((key) => allowed.has(key));

/** What the SDK's transport requires of the headers before it reads a message (otherwise it answers 4xx itself). */
function headersFit(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return false;
  }
  if (!isJsonContentType(headers['content-type'])) return false;
  const version = headers['mcp-protocol-version'];
  return version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version));
}

/** The request when the fast path answers it as the SDK would; undefined sends it through the SDK. */
export function fastMessage(body: unknown, headers: IncomingHttpHeaders): FastMessage | undefined {
  if (!isPlainObject(body) || !onlyKeys(body, MESSAGE_KEYS) || body['jsonrpc'] !== '2.0') return undefined;
  const { id, method, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (method === 'tools/list') {
    if (params !== undefined && !(isPlainObject(params) && Object.keys(params).length === 0)) return undefined;
    return headersFit(headers) ? { id, method } : undefined;
  }
  if (method !== 'tools/call' || !isPlainObject(params) || !onlyKeys(params, CALL_KEYS)) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string') return undefined;
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  if (!headersFit(headers)) return undefined;
  return { id, method, params: args === undefined ? { name } : { name, arguments: args } };
}

/** The JSON-RPC answer, as the SDK's server frames a result or a thrown error. */
export async function answerFast(calls: McpCalls, message: FastMessage): Promise<string> {
  try {
    const result = message.method === 'tools/list' ? await calls.listTools() : await calls.callTool(message.params);
    return JSON.stringify({ result, jsonrpc: '2.0', id: message.id });
  } catch (error) {
    const { code, message: text, data } = error as { code?: unknown; message?: string; data?: unknown };
    return JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
        message: text ?? 'Internal error',
        ...(data !== undefined && { data }),
      },
    });
  }
}
