import { parameterJsonSchema, type JsonSchema, type ParameterDefinition } from '@datalab/engine';
import { storeWriteCount, type Database } from '../../db/database.ts';
import { LRUCache } from 'lru-cache';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { collectionsAllowing } from '../access/policy.ts';
import { parametersByAsset } from '../calling/parameters.service.ts';
import { slug } from '../calling/service.ts';
import { findToolAssets } from './repository.ts';

// The tools a caller sees on the MCP endpoint: one per data asset they may call (the one policy decides, their
// token narrowing it) whose editor made it available to AI agents, in a collection that has not turned MCP off.
// Names come from the asset's name (snake_case, as models read them best), made unique per caller with the
// collection's name and then the asset's uid; descriptions and input schemas from the asset and its parameters.

/** The tool that lists the allowed values of a parameter taken from a parameter data source. */
export const PARAMETER_VALUES_TOOL = 'parameter_values';

/** MCP tool names: 1–64 of [A-Za-z0-9_-.]; ours are lower-case words joined by '_'. */
const MAX_NAME = 64;

export interface AssetTool {
  name: string;
  assetId: number;
  /** The asset's version: a result's columns are known per version. */
  version: number;
  uid: string;
  assetName: string;
  description: string;
  collectionName: string;
  parameters: ParameterDefinition[];
}

const SNAKE_KEPT_MS = 60 * 60_000;
const snakes = new LRUCache<string, string>({ max: 10_000, ttl: SNAKE_KEPT_MS });

/** A name as lower-case ASCII words joined by '_' (kept: the same names are named on every request). */
function snake(text: string) {
  let name = snakes.get(text);
  if (name === undefined) {
    name = slug(text, true).replace(/-/g, '_');
    snakes.set(text, name);
  }
  return name;
}

type ToolRows = Awaited<ReturnType<typeof findToolAssets>>;

/**
 * The embedded store belongs to this process: the tool assets of a set of collections are read again only after a
 * write (any write). PostgreSQL, shared by every instance, is read on every request.
 */
const LOCAL_ROWS_KEPT_MS = 10 * 60_000;
const localToolRows = new LRUCache<string, { writes: number; rows: ToolRows }>({ max: 1_000, ttl: LOCAL_ROWS_KEPT_MS });

async function toolRows(db: Database, collectionIds: number[]): Promise<ToolRows> {
  const writes = storeWriteCount(db);
  if (writes === undefined) return findToolAssets(db, collectionIds);
  const key = collectionIds.join(',');
  const known = localToolRows.get(key);
  if (known?.writes === writes) return known.rows;
  const rows = await findToolAssets(db, collectionIds);
  localToolRows.set(key, { writes, rows });
  return rows;
}

function trimName(name: string) {
  return name.slice(0, MAX_NAME).replace(/_+$/, '');
}

/** Unique names in the listing's order: the asset's name, then with its collection's, then with its uid. */
function nameTools(rows: { uid: string; name: string; collection_name: string }[]): string[] {
  const base = rows.map((row) => trimName(snake(row.name) || 'data_asset'));
  const counts = new Map<string, number>();
  for (const name of base) counts.set(name, (counts.get(name) ?? 0) + 1);
  const taken = new Set<string>([PARAMETER_VALUES_TOOL]);
  return rows.map((row, index) => {
    const own = base[index]!;
    const candidates = [
      ...(counts.get(own) === 1 ? [own] : []),
      trimName(`${own.slice(0, 40)}_${snake(row.collection_name)}`),
      trimName(`${own.slice(0, 40)}_${snake(row.uid)}`),
    ];
    const name = candidates.find((candidate) => candidate !== '' && !taken.has(candidate)) ?? `asset_${snake(row.uid)}`;
    taken.add(name);
    return name;
  });
}

/** The caller's tools without their parameters (enough to find a tool by its name), in a stable order. */
export async function toolNamesOf(
  db: Database,
  access: AccessModelCache,
  user: AuthUser,
): Promise<Omit<AssetTool, 'parameters'>[]> {
  const collectionIds = await collectionsAllowing(access, user, 'call');
  if (collectionIds.length === 0) return [];
  const rows = await toolRows(db, collectionIds);
  const names = nameTools(rows);
  return rows.map((row, index) => ({
    name: names[index]!,
    assetId: row.id,
    version: row.version,
    uid: row.uid,
    assetName: row.name,
    description: row.description,
    collectionName: row.collection_name,
  }));
}

/** The caller's tools with their parameters, in a stable order (collection name, asset name, id). */
export async function toolsOf(db: Database, access: AccessModelCache, user: AuthUser): Promise<AssetTool[]> {
  const tools = await toolNamesOf(db, access, user);
  if (tools.length === 0) return [];
  const byAsset = await parametersByAsset(
    db,
    tools.map((tool) => tool.assetId),
  );
  return tools.map((tool) => ({ ...tool, parameters: byAsset.get(tool.assetId) ?? [] }));
}

/** A parameter's JSON Schema for a model: fixed options as `oneOf` of `const` with their labels as titles. */
function inputProperty(def: ParameterDefinition): JsonSchema {
  const schema = parameterJsonSchema(def);
  delete schema['x-options-from'];
  const allowed = def.allowedValues;
  if (allowed?.kind === 'fixed') {
    const choices = allowed.options.map((option) => ({
      const: option.value,
      ...(option.label === undefined ? {} : { title: option.label }),
    }));
    const item = (def.list ? schema['items'] : schema) as JsonSchema;
    delete item['enum'];
    item['oneOf'] = choices;
  }
  if (allowed?.kind === 'dataSource') {
    const depends = allowed.dependsOn.length > 0 ? ` (given ${allowed.dependsOn.join(', ')})` : '';
    const note = `Allowed values: call ${PARAMETER_VALUES_TOOL}${depends}.`;
    schema['description'] = schema['description'] === undefined ? note : `${String(schema['description'])} ${note}`;
  }
  return schema;
}

export function inputSchema(parameters: readonly ParameterDefinition[]): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: Object.fromEntries(parameters.map((def) => [def.name, inputProperty(def)])),
    required: parameters.filter((def) => def.required && def.default === undefined).map((def) => def.name),
    additionalProperties: false,
  };
}

/** The rows a tool answers: each row an object of the columns (their types described where a run made them known). */
export function outputSchema(columns: readonly { name: string; type: string }[] | undefined): JsonSchema {
  const row: JsonSchema = columns
    ? {
        type: 'object',
        properties: Object.fromEntries(columns.map((column) => [column.name, { description: column.type }])),
      }
    : { type: 'object' };
  return {
    type: 'object',
    required: ['columns', 'rows', 'rowCount', 'truncated'],
    properties: {
      columns: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'type'],
          properties: { name: { type: 'string' }, type: { type: 'string' } },
        },
      },
      rows: { type: 'array', items: row },
      rowCount: { type: 'integer', description: 'Rows in this result' },
      truncated: { type: 'boolean', description: 'More rows exist: download the whole result instead' },
      hint: { type: 'string' },
    },
  };
}

/** What a model reads about a tool: the asset's description, its collection, and each parameter. */
export function toolDescription(tool: AssetTool): string {
  const lines = [
    tool.description.trim() || `The data asset "${tool.assetName}".`,
    `Data asset "${tool.assetName}" of the collection "${tool.collectionName}"; answers rows.`,
  ];
  if (tool.parameters.length > 0) {
    lines.push('Parameters:');
    for (const def of tool.parameters) {
      const label = def.label && def.label !== def.name ? ` (${def.label})` : '';
      const required = def.required && def.default === undefined ? ', required' : '';
      const about = def.description ? `: ${def.description}` : '';
      lines.push(`- ${def.name}${label}, ${def.list ? `list of ${def.type}` : def.type}${required}${about}`);
    }
  }
  return lines.join('\n');
}

export const parameterValuesInputSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    tool: { type: 'string', description: 'The data asset tool whose parameter is asked about' },
    parameter: { type: 'string', description: 'The parameter name' },
    values: {
      type: 'object',
      description: 'Values chosen so far for the parameters it depends on',
      additionalProperties: true,
    },
  },
  required: ['tool', 'parameter'],
  additionalProperties: false,
};
