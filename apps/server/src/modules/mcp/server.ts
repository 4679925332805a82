import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { AppError } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { HeaderSink } from '../../lib/call-limits.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { DataCall, type CallServices } from '../calling/call.service.ts';
import type { DataSourceDefinition } from '../data-sources/definition.service.ts';
import { parameterChoices } from '../data-sources/run.service.ts';
import type { LRUCache } from 'lru-cache';
import {
  PARAMETER_VALUES_TOOL,
  inputSchema,
  outputSchema,
  parameterValuesInputSchema,
  toolDescription,
  toolNamesOf,
  toolsOf,
  type AssetTool,
} from './tools.ts';

// The MCP server of one HTTP request (the endpoint is stateless: nothing of a caller outlives their request, so a
// revoked token or a removed role holds from the next request on). tools/list answers the caller's tools; a tool
// call runs the asset through the calling layer's one call path (DataCall: authorization narrowed by the token,
// rate limit, values, cache, run with transformations and masks, usage record and `call` log record), and answers
// rows as structuredContent with a short text, capped at MCP_MAX_ROWS. Whatever goes wrong in a call is a tool
// result with isError (a model reads it and corrects itself), never a protocol failure.

export interface McpContext {
  services: CallServices;
  access: AccessModelCache;
  user: AuthUser;
  requestId: string;
  /** The MCP client as its clientInfo named it ("name/version"), when known. */
  client: string | undefined;
  maxRows: number;
  /** Where the rate-limit fields of a call go (the HTTP reply). */
  headers: HeaderSink;
  /** The version of this server, as initialize answers it. */
  version: string;
  /** Column names and types of results seen, by asset id and version: the tools' output schemas. */
  columns: LRUCache<string, { name: string; type: string }[]>;
}

/** How many allowed values a tool error lists at most. */
const MAX_LISTED_VALUES = 50;

export const COLUMNS_KEPT_MS = 24 * 60 * 60_000;

const columnsKey = (definition: DataSourceDefinition) => `${definition.id}:${definition.version}`;

// Results are built with their keys in the order the SDK's result schema answers them (content, structuredContent,
// isError): the fast path (fast-path.ts) sends them as built, and must answer byte for byte what the SDK sends.
function toolError(text: string, details?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    ...(details ? { structuredContent: details } : {}),
    isError: true,
  };
}

/** An error of a call as a model reads it: what happened and, per parameter, what is wrong. */
function errorText(error: unknown): string {
  if (error instanceof AppError) {
    const parts = [error.title];
    if (error.message && error.message !== error.title) parts.push(error.message);
    for (const [field, messages] of Object.entries(error.errors ?? {})) parts.push(`${field}: ${messages.join(' ')}`);
    if (error.status === 429 && error.headers['retry-after']) {
      parts.push(`Retry after ${error.headers['retry-after']} s.`);
    }
    return parts.join('\n');
  }
  return 'The call failed on the server. Try again later; if it keeps failing, tell an administrator.';
}

type Choice = { value: unknown; label: string };

const listChoices = (choices: Choice[]) =>
  choices
    .slice(0, MAX_LISTED_VALUES)
    .map((choice) =>
      choice.label === String(choice.value)
        ? JSON.stringify(choice.value)
        : `${JSON.stringify(choice.value)} (${choice.label})`,
    )
    .join(', ') + (choices.length > MAX_LISTED_VALUES ? `, … (${choices.length - MAX_LISTED_VALUES} more)` : '');

/** Given values of the parameter data source's parents, as the options query takes them. */
function givenValues(values: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0)),
  );
}

/**
 * A validation error of a call whose refused parameters take their values from a parameter data source: the same
 * error, with the allowed values (given the parents chosen) listed per parameter.
 */
async function withAllowedValues(
  context: McpContext,
  definition: DataSourceDefinition,
  values: Record<string, unknown>,
  error: AppError,
): Promise<CallToolResult> {
  const { calling } = context.services;
  const services = { db: calling.db, runtime: calling.sqlRuntime, connectors: calling.connectors };
  const allowed: Record<string, unknown[]> = {};
  const lines = [errorText(error)];
  for (const field of Object.keys(error.errors ?? {})) {
    const def = definition.parameters.find((parameter) => parameter.name === field);
    if (!def?.allowedValues) continue;
    const choices = await parameterChoices(services, definition.collection.id, def, givenValues(values));
    allowed[field] = choices.slice(0, MAX_LISTED_VALUES).map((choice) => choice.value);
    lines.push(`Allowed values of ${field}: ${listChoices(choices) || 'none'}.`);
  }
  return toolError(lines.join('\n'), { error: error.title, errors: error.errors ?? {}, allowedValues: allowed });
}

async function callAsset(
  context: McpContext,
  tool: Pick<AssetTool, 'uid'>,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const call = new DataCall(context.services, {
    user: context.user,
    uid: tool.uid,
    channel: 'mcp',
    requestId: context.requestId,
    ...(context.client ? { client: context.client } : {}),
  });
  let definition: DataSourceDefinition | undefined;
  let values: Record<string, unknown> = {};
  try {
    definition = await call.authorize(context.headers);
    values = call.values(definition, args);
    const result = await call.json(definition, values);
    const { columns, rows } = JSON.parse(result.body.toString('utf8')) as {
      columns: { name: string; type: string }[];
      rows: Record<string, unknown>[];
    };
    context.columns.set(columnsKey(definition), columns);
    const cut = rows.length > context.maxRows;
    const shown = cut ? rows.slice(0, context.maxRows) : rows;
    const truncated = cut || result.truncated;
    const hint = truncated
      ? `More rows exist than this result holds (${shown.length}). Narrow the parameters, or download the whole ` +
        `result from ${PRODUCT_NAME} (the asset's page, or /data/v1/${definition.uid}?format=csv).`
      : undefined;
    const summary =
      `${shown.length} row${shown.length === 1 ? '' : 's'} of "${definition.name}"` +
      `${truncated ? ' (truncated)' : ''}; columns: ${columns.map((c) => `${c.name} (${c.type})`).join(', ') || 'none'}.` +
      (hint ? ` ${hint}` : '');
    return {
      content: [{ type: 'text', text: summary }],
      structuredContent: { columns, rows: shown, rowCount: shown.length, truncated, ...(hint ? { hint } : {}) },
    };
  } catch (error) {
    call.fail(error);
    if (error instanceof AppError && error.status === 400 && definition && error.errors) {
      return withAllowedValues(context, definition, values, error).catch(() => toolError(errorText(error)));
    }
    return toolError(errorText(error));
  }
}

async function parameterValues(context: McpContext, tools: AssetTool[], args: Record<string, unknown>) {
  const tool = tools.find((candidate) => candidate.name === args['tool']);
  if (!tool)
    return toolError(
      `No tool named ${JSON.stringify(args['tool'])}. Use one of: ${tools.map((t) => t.name).join(', ')}.`,
    );
  const def = tool.parameters.find((parameter) => parameter.name === args['parameter']);
  if (!def) {
    return toolError(
      `The tool ${tool.name} has no parameter ${JSON.stringify(args['parameter'])}. ` +
        `Its parameters: ${tool.parameters.map((p) => p.name).join(', ') || 'none'}.`,
    );
  }
  if (!def.allowedValues)
    return toolError(`The parameter ${def.name} takes any ${def.type} value: it has no list of values.`);
  const given =
    typeof args['values'] === 'object' && args['values'] !== null ? (args['values'] as Record<string, unknown>) : {};
  const { calling } = context.services;
  try {
    // The same authorization as a call of the asset: its parameter data source runs only for a caller who may call it.
    const call = new DataCall(context.services, {
      user: context.user,
      uid: tool.uid,
      channel: 'mcp',
      requestId: context.requestId,
    });
    const definition = await call.authorize(context.headers);
    const parents = def.allowedValues.kind === 'dataSource' ? def.allowedValues.dependsOn : [];
    const missing = parents.filter((name) => given[name] === undefined);
    if (missing.length > 0) {
      return toolError(
        `Choose ${missing.join(', ')} first: the values of ${def.name} depend on ${parents.join(', ')}.`,
      );
    }
    const typed =
      parents.length > 0
        ? givenValues(
            call.values(
              { ...definition, parameters: definition.parameters.filter((p) => parents.includes(p.name)) },
              given,
            ),
          )
        : {};
    const services = { db: calling.db, runtime: calling.sqlRuntime, connectors: calling.connectors };
    const choices = await parameterChoices(services, definition.collection.id, def, typed);
    const shown = choices.slice(0, 1000);
    return {
      content: [{ type: 'text' as const, text: `Allowed values of ${def.name}: ${listChoices(choices) || 'none'}.` }],
      structuredContent: { parameter: def.name, values: shown, truncated: shown.length < choices.length },
    };
  } catch (error) {
    return toolError(errorText(error));
  }
}

function describeTool(context: McpContext, tool: AssetTool): Tool {
  return {
    name: tool.name,
    title: tool.assetName,
    description: toolDescription(tool),
    inputSchema: inputSchema(tool.parameters) as Tool['inputSchema'],
    outputSchema: outputSchema(context.columns.get(`${tool.assetId}:${tool.version}`)) as Tool['outputSchema'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

const parameterValuesTool: Tool = {
  name: PARAMETER_VALUES_TOOL,
  title: 'Allowed parameter values',
  description:
    'The values a parameter of a data asset tool may take, where they come from a list (given the values ' +
    'already chosen for the parameters it depends on). Call it before a tool whose parameter description says so.',
  inputSchema: parameterValuesInputSchema as Tool['inputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** One validator for every request's server: building one compiles Ajv's meta-schemas. */
const validator = new AjvJsonSchemaValidator();

/** What a request of the caller may ask: its tools, and a call of one. Shared by the SDK's server and the fast path. */
export interface McpCalls {
  listTools(): Promise<ListToolsResult>;
  /** A tool call (params as the SDK's request schema leaves them); an unknown tool throws an McpError. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult>;
}

export function mcpCalls(context: McpContext): McpCalls {
  let tools: Promise<AssetTool[]> | undefined;
  const loadTools = () => (tools ??= toolsOf(context.services.calling.db, context.access, context.user));
  return {
    async listTools() {
      const list = await loadTools();
      const described = list.map((tool) => describeTool(context, tool));
      const needsValues = list.some((tool) => tool.parameters.some((def) => def.allowedValues?.kind === 'dataSource'));
      return { tools: needsValues ? [...described, parameterValuesTool] : described };
    },
    async callTool({ name, arguments: args = {} }) {
      if (name === PARAMETER_VALUES_TOOL) return parameterValues(context, await loadTools(), args);
      // A call needs only the tool's asset: its definition (and parameters) comes with the call itself.
      const names = await toolNamesOf(context.services.calling.db, context.access, context.user);
      const tool = names.find((candidate) => candidate.name === name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return callAsset(context, tool, args);
    },
  };
}

/** The MCP server of one request, with the caller's tools. */
export function createMcpServer(context: McpContext, calls: McpCalls = mcpCalls(context)): Server {
  const server = new Server(
    { name: 'datalab', title: PRODUCT_NAME, version: context.version },
    {
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: validator,
      instructions:
        `The tools answer rows of the data assets you may call in ${PRODUCT_NAME}, each with typed parameters. ` +
        `Where a parameter takes its values from a list, ${PARAMETER_VALUES_TOOL} names them.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => calls.listTools());
  server.setRequestHandler(CallToolRequestSchema, (request) => calls.callTool(request.params));
  return server;
}
