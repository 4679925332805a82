import { z } from 'zod';
import { parameterDefinitionSchema } from '../parameters.ts';
import { nameText, text } from '../text.ts';
import { allowedHostsList, webApiConnectionLimits } from '../web-api-limits.ts';
import { webApiRequest } from '../web-api-request.ts';
import { assetLimits, ASSET_NAME_MAX, transformationInput } from './asset-fields.ts';
import { dataRole } from './data-roles.ts';
import { clientTools, clientToolSettings } from './data-sources.ts';
import { sqlDrivers } from './sql-connections.ts';
import { credentialKinds } from './web-api-credentials.ts';

// A collection's definition as a document (docs/definitions.md): what export writes and what plan and apply read.
// Everything is named, never numbered: connections, assets, credentials, groups and users by name, so a document
// from one server applies to another. Secrets are never in it: a secret is `{ secret: <reference> }`, whose value the
// importing side sends beside the document (`secrets`) or already holds under that reference. Objects are strict:
// a field the format does not know is refused with its path. Lists of named things are sorted by name on export;
// parameters and transformations keep their order, which means something.

export const DEFINITION_API_VERSION = 'datalab.io/v1';
export const DEFINITION_KIND = 'CollectionDefinition';
export const SECRET_REFERENCE_MAX = 200;

/** A secret by reference: letters, digits and `._-/`, e.g. `shop.password`. */
export const secretReference = z.strictObject({
  secret: z
    .string()
    .trim()
    .min(1)
    .max(SECRET_REFERENCE_MAX)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'Use letters, digits, dot, dash, underscore or slash'),
});
export type SecretReference = z.infer<typeof secretReference>;

const connectionName = nameText(100);

export const definitionSqlConnection = z.strictObject({
  name: connectionName,
  description: text(2000).default(''),
  driver: z.enum(sqlDrivers),
  /** Network databases only (postgres, mysql). */
  host: text(255).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  /** The database name; for SQLite, the file path relative to the collection's folder or a shared one. */
  database: text(1000).pipe(z.string().min(1)),
  username: text(200).optional(),
  password: secretReference.optional(),
  ssl: z.boolean().default(false),
  poolMax: z.number().int().min(1).max(100).default(5),
  acquireTimeoutMs: z.number().int().min(1).max(60_000).default(2000),
});
export type DefinitionSqlConnection = z.output<typeof definitionSqlConnection>;

export const definitionCredential = z.strictObject({
  name: nameText(100),
  kind: z.enum(credentialKinds),
  /** The kind's settings, never its secret (api-key: in, name; basic: username; oauth2: tokenUrl, clientId...). */
  settings: z.record(z.string(), z.unknown()).default({}),
  /** The API key's value, the basic password, the bearer token or the OAuth2 client secret. */
  secret: secretReference.optional(),
});
export type DefinitionCredential = z.output<typeof definitionCredential>;

const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Invalid header name')
  .max(200);

export const definitionWebApiConnection = z.strictObject({
  name: connectionName,
  description: text(2000).default(''),
  baseUrl: z.url({ protocol: /^https?$/ }).max(2000),
  headers: z.record(headerName, z.string().max(8192)).default({}),
  /** Changed only by an administrator (as on the connection's own call). */
  allowedHosts: allowedHostsList.default([]),
  ...webApiConnectionLimits,
  credentials: z.array(definitionCredential).max(100).default([]),
});
export type DefinitionWebApiConnection = z.output<typeof definitionWebApiConnection>;

/** Allowed values from another data asset of the collection, by its name. */
const dataAssetValues = z.strictObject({
  kind: z.literal('dataSource'),
  dataAsset: nameText(ASSET_NAME_MAX),
  valueColumn: z.string().min(1),
  labelColumn: z.string().min(1),
  /** Other parameters of this asset whose values the parameter data source takes (dependent dropdowns). */
  dependsOn: z.array(z.string()).default([]),
});
const fixedValues = z.strictObject({
  kind: z.literal('fixed'),
  options: z
    .array(z.strictObject({ value: z.union([z.string(), z.number(), z.boolean()]), label: z.string().optional() }))
    .min(1),
});

export const definitionParameter = z.strictObject({
  ...parameterDefinitionSchema.shape,
  allowedValues: z.discriminatedUnion('kind', [fixedValues, dataAssetValues]).optional(),
});
export type DefinitionParameter = z.output<typeof definitionParameter>;

const clientToolEntry = z.strictObject({ tool: z.enum(clientTools), settings: clientToolSettings.default({}) });

const assetName = nameText(ASSET_NAME_MAX);

const assetCommon = {
  description: text(2000).default(''),
  /** The connection's name (a SQL connection for kind sql, a Web API connection for kind webapi). */
  connection: connectionName,
  ...assetLimits,
  mcpAvailable: z.boolean().default(false),
  parameters: z.array(definitionParameter).max(200).default([]),
  transformations: z.array(transformationInput).max(100).default([]),
  clientTools: z.array(clientToolEntry).max(clientTools.length).default([]),
};

export const definitionSqlAsset = z.strictObject({
  name: assetName,
  kind: z.literal('sql'),
  ...assetCommon,
  sql: z.string().max(100_000).pipe(z.string().trim().min(1)),
});

export const definitionWebApiAsset = z.strictObject({
  name: assetName,
  kind: z.literal('webapi'),
  ...assetCommon,
  request: webApiRequest,
  /** One of the connection's credentials, by name; absent: none. */
  credential: nameText(100).optional(),
});

export const definitionAsset = z.discriminatedUnion('kind', [definitionSqlAsset, definitionWebApiAsset]);
export type DefinitionAsset = z.output<typeof definitionAsset>;

export const definitionGroupRole = z.strictObject({ group: nameText(200), role: dataRole });
export const definitionUserRole = z.strictObject({ username: nameText(200), role: dataRole });

export const definitionDocument = z.strictObject({
  apiVersion: z.literal(DEFINITION_API_VERSION),
  kind: z.literal(DEFINITION_KIND),
  collection: z.strictObject({
    name: nameText(200),
    description: text(2000).default(''),
    /** Whether the collection's assets that are available to AI agents are MCP tools. */
    mcpEnabled: z.boolean().default(true),
  }),
  sqlConnections: z.array(definitionSqlConnection).max(1000).default([]),
  webApiConnections: z.array(definitionWebApiConnection).max(1000).default([]),
  dataAssets: z.array(definitionAsset).max(10_000).default([]),
  dataRoles: z
    .strictObject({
      groups: z.array(definitionGroupRole).max(1000).default([]),
      users: z.array(definitionUserRole).max(1000).default([]),
    })
    .default({ groups: [], users: [] }),
  /** Delete what the collection holds and the document leaves out (connections, assets, roles); off by default. */
  prune: z.boolean().default(false),
});
export type DefinitionDocument = z.output<typeof definitionDocument>;
export type DefinitionDocumentInput = z.input<typeof definitionDocument>;

/** The document's JSON Schema (draft 2020-12), published at /api/docs/definition.schema.json. */
export function definitionJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(definitionDocument, { io: 'input', unrepresentable: 'any' }),
    $id: 'definition.schema.json',
    title: `Data Lab ${DEFINITION_KIND} (${DEFINITION_API_VERSION})`,
  };
}
