import { z } from 'zod';
import { defineCall } from '../call.ts';
import { createAssetBody, deleteAssetQuery, deletedAsset, updateAssetBody } from './asset-fields.ts';
import { assetPreviewBody, previewResult } from './asset-preview.ts';
import { dataSourceDetail } from './data-sources.ts';

// SQL data assets: create, change, delete, and run SQL that is not saved yet (the editor's Run before Save).

export { ASSET_NAME_MAX } from './asset-fields.ts';
export { previewResult, type PreviewResult } from './asset-preview.ts';
export const SQL_MAX = 100_000;
/** The preview answers at most this many rows, whatever the asset's row cap. */
export const PREVIEW_ROW_CAP = 200;

const sqlShape = { sql: z.string().max(SQL_MAX).pipe(z.string().trim().min(1)) };

export const createSqlDataSource = createAssetBody(sqlShape);
export type CreateSqlDataSource = z.input<typeof createSqlDataSource>;

/** Parameters, transformations and client tools are left as they are unless sent. */
export const updateSqlDataSource = updateAssetBody(sqlShape);

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
  query: deleteAssetQuery,
  response: deletedAsset,
});

export const previewSqlDataSource = defineCall({
  method: 'POST',
  path: '/api/SqlDataSource/Preview',
  tag: 'SqlDataSource',
  summary: `Run SQL that is not saved yet, read-only, at most ${PREVIEW_ROW_CAP} rows (Editor)`,
  body: assetPreviewBody(sqlShape, PREVIEW_ROW_CAP),
  response: previewResult,
});
