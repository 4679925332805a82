import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { webApiRequest } from '../web-api-request.ts';
import { clientTools, dataSourceDetail, dataSourceKinds } from './data-sources.ts';

// The history of a data asset: every save that changes its definition keeps the whole definition as a new
// version (1, 2, … per asset) with who saved it, when and which fields differ from the version before. A save
// that changes nothing keeps no version. Restore saves an old definition again, through the same checks as any
// save, as a new version; the asset keeps its id and uid, so tokens and links to it keep working.

/** The fields a version's summary names, in this order. */
export const assetDefinitionFields = [
  'name',
  'description',
  'connection',
  'sql',
  'request',
  'credential',
  'parameters',
  'transformations',
  'clientTools',
  'limits',
  'cache',
  'mcpAvailable',
] as const;
export type AssetDefinitionField = (typeof assetDefinitionFields)[number];

/** The whole definition of an asset as a version keeps it (ids of parameters, rules and tools left out). */
export const assetDefinition = z.object({
  kind: z.enum(dataSourceKinds),
  name: z.string(),
  description: z.string(),
  /** The connection it runs on (its name as it was when saved); null when it has none. */
  connection: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** SQL text; '' for a Web API asset. */
  sql: z.string(),
  /** A Web API asset's request; null for a SQL asset. */
  request: webApiRequest.nullable(),
  /** A Web API asset's credential (id and name, never its secret); null: none. */
  credential: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  cacheTtlSeconds: z.number().int(),
  rowCap: z.number().int(),
  timeoutMs: z.number().int(),
  maxExportRows: z.number().int(),
  mcpAvailable: z.boolean(),
  /** Parameter definitions in order, as stored (allowed values, data sources, depends-on). */
  parameters: z.array(z.record(z.string(), z.unknown())),
  transformations: z.array(z.object({ name: z.string(), rules: z.array(z.record(z.string(), z.unknown())) })),
  clientTools: z.array(z.object({ tool: z.enum(clientTools), settings: z.record(z.string(), z.unknown()) })),
});
export type AssetDefinition = z.infer<typeof assetDefinition>;

export const assetVersionSummary = z.object({
  version: z.number().int(),
  savedAt: isoDateTime,
  /** Null when unknown: the version recorded when an older asset's history began. */
  savedBy: z.object({ id: z.number().int().nullable(), name: z.string() }).nullable(),
  /** The fields that differ from the version before; empty for the first. */
  changed: z.array(z.string()),
  /** What the save was, in words: 'Created', 'Changed sql, parameters', 'Restored version 3: sql'. */
  summary: z.string(),
});
export type AssetVersionSummary = z.infer<typeof assetVersionSummary>;

export const assetVersion = assetVersionSummary.extend({ definition: assetDefinition });
export type AssetVersion = z.infer<typeof assetVersion>;

const assetParam = z.string().trim().min(1).max(100);
const versionParam = z.coerce.number().int().min(1).max(1_000_000_000);

export const getAssetVersions = defineCall({
  method: 'GET',
  path: '/api/DataSource/:uid/Versions',
  tag: 'DataSource',
  summary: "An asset's versions, newest first (Editor)",
  params: z.object({ uid: assetParam }),
  query: pageQuery,
  response: pageOf(assetVersionSummary),
});

export const getAssetVersion = defineCall({
  method: 'GET',
  path: '/api/DataSource/:uid/Versions/:version',
  tag: 'DataSource',
  summary: 'One version of an asset with its whole definition (Editor)',
  params: z.object({ uid: assetParam, version: versionParam }),
  response: assetVersion,
});

export const restoreAssetVersion = defineCall({
  method: 'POST',
  path: '/api/DataSource/:uid/Versions/:version/Restore',
  tag: 'DataSource',
  summary: 'Save an old version again, checked like any save, as a new version (Editor)',
  params: z.object({ uid: assetParam, version: versionParam }),
  response: z.object({ restoredFrom: z.number().int(), version: z.number().int(), asset: dataSourceDetail }),
});
