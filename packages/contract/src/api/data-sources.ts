import { z } from 'zod';
import { messages } from '../messages.ts';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { parameterDefinitionSchema, parameterDefinitionsSchema, storedParameterSchema } from '../parameters.ts';
import { text } from '../text.ts';
import { ruleSchema, storedRuleSchema } from '../transformations.ts';
import { webApiAssetPart } from '../web-api-request.ts';
import { assetParam, assetParams, idParam } from './asset-params.ts';
import { dataRole } from './data-roles.ts';

export * from './asset-calls.ts';

// Data assets (data sources) of every kind: listing, one asset whole, and what hangs off it: parameters,
// transformations with their rules, client tool configurations. Parameter definitions and rules have one schema
// each (../parameters.ts, ../transformations.ts), which the engine runs too: a bad one is refused by the request's
// validation with the same messages, and /api/docs shows their shapes.

export const dataSourceKinds = ['sql', 'webapi'] as const;
export const clientTools = ['curl', 'python', 'r', 'javascript', 'powerquery', 'powerbi'] as const;
export type ClientTool = (typeof clientTools)[number];

/** A parameter definition (name, type, list, required, default, min/max, pattern, allowed values). */
export const parameterDefinition = parameterDefinitionSchema;
/** An asset's definitions, in order: names unique, dependencies among them. */
export const parameterDefinitions = parameterDefinitionsSchema;
export const storedParameter = storedParameterSchema;
export const rule = ruleSchema;
export const storedRule = storedRuleSchema;

export const transformation = z.object({
  id: z.number().int(),
  position: z.number().int(),
  name: z.string(),
  rules: z.array(storedRule),
});
export type TransformationView = z.infer<typeof transformation>;

export const clientToolConfiguration = z.object({
  id: z.number().int(),
  tool: z.enum(clientTools),
  settings: z.record(z.string(), z.unknown()),
});

export const dataSourceSummary = z.object({
  id: z.number().int(),
  uid: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(dataSourceKinds),
  collection: z.object({ uid: z.string(), name: z.string() }),
  connectionName: z.string().nullable(),
  parameterCount: z.number().int(),
  myRole: dataRole.nullable(),
  updatedAt: isoDateTime,
});
export type DataSourceSummary = z.infer<typeof dataSourceSummary>;

export const dataSourceDetail = dataSourceSummary.extend({
  sql: z.string(),
  version: z.number().int(),
  cacheTtlSeconds: z.number().int(),
  rowCap: z.number().int(),
  timeoutMs: z.number().int(),
  maxExportRows: z.number().int(),
  /** Offered to AI agents as a tool of the MCP endpoint. */
  mcpAvailable: z.boolean(),
  connection: z.object({ id: z.number().int(), name: z.string(), kind: z.string() }).nullable(),
  parameters: z.array(storedParameter),
  transformations: z.array(transformation),
  clientToolConfigurations: z.array(clientToolConfiguration),
  createdAt: isoDateTime,
  can: z.object({ edit: z.boolean() }),
  /** A Web API asset's request and chosen credential (`sql` is then empty); null for a SQL asset. */
  webApi: webApiAssetPart.nullable().optional(),
});
export type DataSourceDetail = z.infer<typeof dataSourceDetail>;

export const getAllDataSources = defineCall({
  method: 'GET',
  path: '/api/DataSource/GetAll',
  tag: 'DataSource',
  summary: 'Every data asset the caller can call; search by name or description, filter by collection and kind',
  query: pageQuery.extend({
    search: text(200).optional(),
    collectionUid: z.string().trim().min(1).optional(),
    kind: z.enum(dataSourceKinds, { error: messages.unsupportedDataAssetType }).optional(),
  }),
  response: pageOf(dataSourceSummary),
});

export const getDataSourcesOfCollection = defineCall({
  method: 'GET',
  path: '/api/DataSource',
  tag: 'DataSource',
  summary: "A collection's data assets (Reader)",
  query: z.object({ collectionUid: z.string().trim().min(1) }),
  response: z.array(dataSourceSummary),
});

export const getDataSourceByUid = defineCall({
  method: 'GET',
  path: '/api/DataSource/GetByUid/:uid',
  tag: 'DataSource',
  summary: 'One data asset whole: SQL, limits, parameters, transformations, client tools (Reader)',
  params: z.object({ uid: assetParam }),
  response: dataSourceDetail,
});

const parameterList = z.object({ parameters: parameterDefinitions });

export const postParameter = defineCall({
  method: 'POST',
  path: '/api/DataSource/:id/Parameters',
  tag: 'DataSource',
  summary: 'Add one parameter at the end (Editor); bumps the version',
  params: assetParams,
  body: parameterDefinition,
  response: z.array(storedParameter),
  status: 201,
});

export const putParameters = defineCall({
  method: 'PUT',
  path: '/api/DataSource/:id/Parameters',
  tag: 'DataSource',
  summary: 'Replace the parameters, in order (Editor); bumps the version',
  params: assetParams,
  body: parameterList,
  response: z.array(storedParameter),
});

export const deleteParameter = defineCall({
  method: 'DELETE',
  path: '/api/DataSource/Parameters/:id',
  tag: 'DataSource',
  summary: 'Delete one parameter (Editor); bumps the version',
  params: z.object({ id: idParam }),
  response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
});

export const getParameterDataSources = defineCall({
  method: 'GET',
  path: '/api/DataSource/:id/ParameterDataSources',
  tag: 'DataSource',
  summary: "The assets of the same collection that may feed this asset's parameters, with their parameters (Reader)",
  params: assetParams,
  response: z.array(
    z.object({ id: z.number().int(), uid: z.string(), name: z.string(), parameterNames: z.array(z.string()) }),
  ),
});

export const parameterOption = z.object({ value: z.unknown(), label: z.string() });

export const getParameterData = defineCall({
  method: 'GET',
  path: '/api/DataSource/ParameterData/:id',
  tag: 'DataSource',
  summary:
    "A parameter's allowed values from its parameter data source; the query carries its parents' values (Reader)",
  params: z.object({ id: idParam }),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  response: z.object({ options: z.array(parameterOption) }),
});

/** How many options the editor's preview of a parameter data source shows at most. */
export const PARAMETER_PREVIEW_OPTION_CAP = 200;

/**
 * The editor picks the asset first: without valueColumn only the columns come back. The source must be an asset of
 * the collection; it runs as the calling layer runs it to check a value (nothing is cached).
 */
export const previewParameterData = defineCall({
  method: 'POST',
  path: '/api/DataSource/ParameterData/Preview',
  tag: 'DataSource',
  summary:
    "A parameter not saved yet as a caller will see it: its parameter data source run with the parents' values " +
    `(only those in dependsOn reach it), its columns and at most ${PARAMETER_PREVIEW_OPTION_CAP} options (Editor)`,
  body: z.object({
    collectionUid: z.string().trim().min(1),
    dataSourceId: z.union([z.string().trim().min(1), z.number().int()]),
    valueColumn: z.string().min(1).optional(),
    labelColumn: z.string().min(1).optional(),
    /** The parameters whose values the source takes; other values are not sent to it. */
    dependsOn: z.array(z.string()).default([]),
    values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).default({}),
  }),
  response: z.object({
    columns: z.array(z.object({ name: z.string(), type: z.string() })),
    options: z.array(parameterOption),
    truncated: z.boolean(),
  }),
});

/** A transformation as sent: on its own, in a replacement list, or in a data asset's create and update bodies. */
export const transformationInput = z.object({ name: text(200).default(''), rules: z.array(rule).default([]) });
const transformationParams = z.object({ id: assetParam, tid: idParam });

export const getTransformations = defineCall({
  method: 'GET',
  path: '/api/DataSource/Transformations/:id',
  tag: 'DataSource',
  summary: "An asset's transformations with their rules, in order (Reader)",
  params: assetParams,
  response: z.array(transformation),
});

export const postTransformation = defineCall({
  method: 'POST',
  path: '/api/DataSource/:id/Transformations',
  tag: 'DataSource',
  summary: 'Add a transformation at the end (Editor); bumps the version',
  params: assetParams,
  body: transformationInput,
  response: z.array(transformation),
  status: 201,
});

export const putTransformations = defineCall({
  method: 'PUT',
  path: '/api/DataSource/:id/Transformations',
  tag: 'DataSource',
  summary: 'Replace the transformations and their rules, in order (Editor); bumps the version',
  params: assetParams,
  body: z.object({ transformations: z.array(transformationInput) }),
  response: z.array(transformation),
});

export const deleteTransformation = defineCall({
  method: 'DELETE',
  path: '/api/DataSource/:id/Transformations/:tid',
  tag: 'DataSource',
  summary: 'Delete a transformation with its rules (Editor); bumps the version',
  params: transformationParams,
  response: z.array(transformation),
});

export const postTransformationRule = defineCall({
  method: 'POST',
  path: '/api/DataSource/:id/Transformations/:tid/TransformationRules',
  tag: 'DataSource',
  summary: 'Add a rule at the end of a transformation (Editor); bumps the version',
  params: transformationParams,
  body: rule,
  response: z.array(transformation),
  status: 201,
});

export const putTransformationRules = defineCall({
  method: 'PUT',
  path: '/api/DataSource/:id/Transformations/:tid/TransformationRules',
  tag: 'DataSource',
  summary: "Replace a transformation's rules, in order (Editor); bumps the version",
  params: transformationParams,
  body: z.object({ rules: z.array(rule) }),
  response: z.array(transformation),
});

export const deleteTransformationRule = defineCall({
  method: 'DELETE',
  path: '/api/DataSource/:id/Transformations/:tid/TransformationRules/:rid',
  tag: 'DataSource',
  summary: 'Delete one rule (Editor); bumps the version',
  params: transformationParams.extend({ rid: idParam }),
  response: z.array(transformation),
});

/** The most a snippet waits for the answer, in seconds. */
export const SNIPPET_TIMEOUT_MAX_SECONDS = 3600;

/**
 * A client tool's settings: `format` (json or csv) is the one its snippets start with; `timeoutSeconds` how long
 * they wait for the answer (curl, Python, JavaScript, R and Power Query stop after it); `pandas` (Python only)
 * whether a pandas snippet is offered beside the standard-library one. Other members are kept as sent.
 */
export const clientToolSettings = z.looseObject({
  format: z.enum(['json', 'csv']).optional(),
  timeoutSeconds: z.number().int().min(1).max(SNIPPET_TIMEOUT_MAX_SECONDS).optional(),
  pandas: z.boolean().optional(),
});
export type ClientToolSettings = z.infer<typeof clientToolSettings>;

const clientToolInput = z.object({
  tool: z.enum(clientTools),
  settings: clientToolSettings.default({}),
});

export const postClientToolConfiguration = defineCall({
  method: 'POST',
  path: '/api/DataSource/:id/ClientToolConfiguration',
  tag: 'DataSource',
  summary: 'Add the configuration of one client tool (Editor); 409 when the tool has one',
  params: assetParams,
  body: clientToolInput,
  response: z.array(clientToolConfiguration),
  status: 201,
});

export const putClientToolConfiguration = defineCall({
  method: 'PUT',
  path: '/api/DataSource/:id/ClientToolConfiguration',
  tag: 'DataSource',
  summary: 'Set the configuration of one client tool, creating it when missing (Editor)',
  params: assetParams,
  body: clientToolInput,
  response: z.array(clientToolConfiguration),
});

export const deleteClientToolConfiguration = defineCall({
  method: 'DELETE',
  path: '/api/DataSource/:id/ClientToolConfiguration/:cid',
  tag: 'DataSource',
  summary: 'Delete the configuration of one client tool (Editor)',
  params: z.object({ id: assetParam, cid: idParam }),
  response: z.array(clientToolConfiguration),
});
