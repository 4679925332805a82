import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import type { ParameterDefinition, ParameterType } from './schema.ts';

// Renders parameter definitions as JSON Schema (2020-12, as OpenAPI 3.1 uses) and as OpenAPI query parameters.

export type JsonSchema = Record<string, unknown>;

const scalarSchemas: Record<ParameterType, JsonSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  // Decimals travel as text so no digit is lost to floating point.
  decimal: { type: 'string', format: 'decimal', pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
};

/**
 * JSON Schema's `pattern` is an ECMA-262 regular expression; a parameter's is RE2 syntax, which mostly coincides.
 * One that also parses as ECMA-262 (Unicode mode) is given as `pattern`; any other (`(?i)`, `\pL`, `(?P<name>…)`,
 * `\x{…}`, `\z`) as `x-re2-pattern`, so the document stays valid for tools that compile every `pattern`. Only parsed:
 * the server never matches values with RegExp.
 */
function patternKeywords(pattern: string): JsonSchema {
  const anchored = `^(?:${pattern})$`;
  try {
    new RegExp(anchored, 'u');
    return { pattern: anchored };
  } catch {
    return { 'x-re2-pattern': anchored };
  }
}

function scalarSchema(def: ParameterDefinition): JsonSchema {
  const schema: JsonSchema = { ...scalarSchemas[def.type] };
  if (def.type === 'string') {
    if (def.min !== undefined) schema['minLength'] = Number(def.min);
    schema['maxLength'] = def.max === undefined ? DEFAULT_STRING_MAX_LENGTH : Number(def.max);
    if (def.pattern !== undefined) Object.assign(schema, patternKeywords(def.pattern));
  } else if (def.type === 'integer') {
    if (def.min !== undefined) schema['minimum'] = Number(def.min);
    if (def.max !== undefined) schema['maximum'] = Number(def.max);
  } else if (def.type !== 'boolean') {
    // Decimal and date bounds are not expressible in JSON Schema; they are described instead.
    if (def.min !== undefined) schema['x-minimum'] = String(def.min);
    if (def.max !== undefined) schema['x-maximum'] = String(def.max);
  }
  if (def.allowedValues?.kind === 'fixed') schema['enum'] = def.allowedValues.options.map((o) => o.value);
  return schema;
}

export function parameterJsonSchema(def: ParameterDefinition): JsonSchema {
  const item = scalarSchema(def);
  const schema: JsonSchema = def.list ? { type: 'array', items: item } : item;
  if (def.label !== undefined) schema['title'] = def.label;
  if (def.description !== undefined) schema['description'] = def.description;
  if (def.default !== undefined) schema['default'] = def.default;
  if (def.allowedValues?.kind === 'dataSource') {
    schema['x-options-from'] = {
      dataSourceId: def.allowedValues.dataSourceId,
      dependsOn: def.allowedValues.dependsOn,
    };
  }
  return schema;
}

/** The JSON object a POST body carries. */
export function parametersJsonSchema(definitions: readonly ParameterDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(definitions.map((def) => [def.name, parameterJsonSchema(def)])),
    required: definitions.filter((def) => def.required && def.default === undefined).map((def) => def.name),
    additionalProperties: false,
  };
}

/** OpenAPI 3.1 query parameters for GET: lists as repeated keys (form, explode). */
export function openApiQueryParameters(definitions: readonly ParameterDefinition[]): JsonSchema[] {
  return definitions.map((def) => ({
    name: def.name,
    in: 'query',
    required: def.required && def.default === undefined,
    ...(def.description === undefined ? {} : { description: def.description }),
    schema: parameterJsonSchema(def),
    ...(def.list ? { style: 'form', explode: true } : {}),
  }));
}
