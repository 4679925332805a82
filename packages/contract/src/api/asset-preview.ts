import { z } from 'zod';
import { assetIdentity, assetLimits, assetPartsOnCreate } from './asset-fields.ts';

// Running a data asset that is not saved yet (the SQL editor's Run, the Web API editor's "Try"): what every kind
// sends besides its own fields, and what every kind answers.

/**
 * The body of a preview: the collection and connection, the kind's own fields, the draft's parameters and
 * transformations, the values to run with, and a row cap of at most `rowCapMax`.
 */
export const assetPreviewBody = <KindShape extends z.ZodRawShape>(kindShape: KindShape, rowCapMax: number) =>
  z.object({
    collectionUid: z.string().trim().min(1),
    connectionId: assetIdentity.connectionId,
    ...kindShape,
    parameters: assetPartsOnCreate.parameters,
    transformations: assetPartsOnCreate.transformations,
    values: z.record(z.string(), z.unknown()).default({}),
    rowCap: z.number().int().min(1).max(rowCapMax).default(100),
    timeoutMs: assetLimits.timeoutMs,
  });

export const previewResult = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
  durationMs: z.number(),
  /** The values as checked and typed (product §5 errors are a 400 before anything runs). */
  boundValues: z.record(z.string(), z.unknown()),
});
export type PreviewResult = z.infer<typeof previewResult>;
