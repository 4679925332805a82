import { z } from 'zod';
import { nameText, text } from '../text.ts';
import { clientTools, parameterDefinitions, transformationInput } from './data-sources.ts';

// The fields every kind of data asset has in its create and update bodies (SQL and Web API alike): which
// connection, its name and description, its limits, and the parts saved with it in one transaction; and the create,
// update and delete shapes built from them, into which each kind puts its own fields (its SQL, its request).

export { transformationInput };

export const ASSET_NAME_MAX = 100;

export const assetLimits = {
  cacheTtlSeconds: z.number().int().min(0).max(86_400).default(0),
  rowCap: z.number().int().min(1).max(100_000).default(1000),
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  maxExportRows: z.number().int().min(1).max(10_000_000).default(1_000_000),
  /** A tool of the MCP endpoint for the callers who may call it (off when created without it; kept when not sent). */
  mcpAvailable: z.boolean().optional(),
};

export const assetIdentity = {
  connectionId: z.number().int(),
  name: nameText(ASSET_NAME_MAX),
  description: text(2000).default(''),
};

/**
 * The client tools the asset offers snippets for, saved with the asset in its transaction: a tool not configured
 * yet starts with empty settings, a kept one keeps its settings, one left out is removed.
 */
const clientToolList = z.array(z.enum(clientTools)).max(clientTools.length);

/** On create: parameters, transformations and client tools, each empty when not sent. */
export const assetPartsOnCreate = {
  parameters: parameterDefinitions.default([]),
  transformations: z.array(transformationInput).default([]),
  clientTools: clientToolList.default([]),
};

/** On update: parameters, transformations and client tools are left as they are unless sent. */
export const assetPartsOnUpdate = {
  parameters: parameterDefinitions.optional(),
  transformations: z.array(transformationInput).optional(),
  clientTools: clientToolList.optional(),
};

/** A data asset's uid, as an update body and the delete call name it. */
export const assetUid = z.string().trim().min(1);

/** The body that creates a data asset: its collection, identity, the kind's own fields, limits, then its parts. */
export const createAssetBody = <KindShape extends z.ZodRawShape>(kindShape: KindShape) =>
  z.object({
    collectionUid: z.string().trim().min(1),
    ...assetIdentity,
    ...kindShape,
    ...assetLimits,
    ...assetPartsOnCreate,
  });

/** The body that changes a data asset: its uid, identity, the kind's own fields, limits, then its parts. */
export const updateAssetBody = <KindShape extends z.ZodRawShape>(kindShape: KindShape) =>
  z.object({ uid: assetUid, ...assetIdentity, ...kindShape, ...assetLimits, ...assetPartsOnUpdate });

/** The delete call's query and reply, for every kind of data asset. */
export const deleteAssetQuery = z.object({ uid: assetUid });
export const deletedAsset = z.object({ uid: z.string(), deleted: z.literal(true) });
