import { z } from 'zod';
import { defineCall } from '../call.ts';
import {
  assetIdentity,
  assetLimits,
  assetPartsOnCreate,
  assetPartsOnUpdate,
  transformationInput,
} from './asset-fields.ts';
import { dataSourceDetail, parameterDefinitions } from './data-sources.ts';

// SQL data assets: create, change, delete, and run SQL that is not saved yet (the editor's Run before Save).

export { ASSET_NAME_MAX } from './asset-fields.ts';
export const SQL_MAX = 100_000;
/** The preview answers at most this many rows, whatever the asset's row cap. */
export const PREVIEW_ROW_CAP = 200;

const assetShape = {
  ...assetIdentity,
  sql: z.string().max(SQL_MAX).pipe(z.string().trim().min(1)),
  ...assetLimits,
};

export const createSqlDataSource = z.object({
  collectionUid: z.string().trim().min(1),
  ...assetShape,
  ...assetPartsOnCreate,
});
export type CreateSqlDataSource = z.input<typeof createSqlDataSource>;

/** Parameters, transformations and client tools are left as they are unless sent. */
export const updateSqlDataSource = z.object({
  uid: z.string().trim().min(1),
  ...assetShape,
  ...assetPartsOnUpdate,
});

export const postSqlDataSource = defineCall({
  method: 'POST',
  path: '/api/SqlDataSource',
  tag: 'SqlDataSource',
  summary: 'Create a SQL data asset with its parameters, transformations and client tools (Editor)',
  body: createSqlDataSource,
  response: dataSourceDetail,
  status: 201,
});

export const putSqlDataSource = defineCall({
  method: 'PUT',
  path: '/api/SqlDataSource',
  tag: 'SqlDataSource',
  summary: 'Change a SQL data asset (Editor); bumps its version',
  body: updateSqlDataSource,
  response: dataSourceDetail,
});

export const deleteSqlDataSource = defineCall({
  method: 'DELETE',
  path: '/api/SqlDataSource',
  tag: 'SqlDataSource',
  summary: 'Delete a SQL data asset (Editor)',
  query: z.object({ uid: z.string().trim().min(1) }),
  response: z.object({ uid: z.string(), deleted: z.literal(true) }),
});

export const previewResult = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
  durationMs: z.number(),
  boundValues: z.record(z.string(), z.unknown()),
});
export type PreviewResult = z.infer<typeof previewResult>;

export const previewSqlDataSource = defineCall({
  method: 'POST',
  path: '/api/SqlDataSource/Preview',
  tag: 'SqlDataSource',
  summary: `Run SQL that is not saved yet, read-only, at most ${PREVIEW_ROW_CAP} rows (Editor)`,
  body: z.object({
    collectionUid: z.string().trim().min(1),
    connectionId: z.number().int(),
    sql: assetShape.sql,
    parameters: parameterDefinitions.default([]),
    transformations: z.array(transformationInput).default([]),
    values: z.record(z.string(), z.unknown()).default({}),
    rowCap: z.number().int().min(1).max(PREVIEW_ROW_CAP).default(100),
    timeoutMs: assetLimits.timeoutMs,
  }),
  response: previewResult,
});
