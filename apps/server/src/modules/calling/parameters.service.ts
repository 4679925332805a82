import { storedParameterDefinitionSchema, type ParameterDefinition } from '@datalab/contract/parameters';
import type { Database } from '../../db/database.ts';
import { findParametersOfAssets } from './repository.ts';

/**
 * The stored parameter definitions of these assets, by asset id, in their order. Definitions that no longer parse are
 * left out (the asset stays listed; a call then says what is wrong). Shared by the OpenAPI document and MCP's tools.
 */
export async function parametersByAsset(
  db: Database,
  assetIds: readonly number[],
): Promise<Map<number, ParameterDefinition[]>> {
  const byAsset = new Map<number, ParameterDefinition[]>();
  if (assetIds.length === 0) return byAsset;
  for (const row of await findParametersOfAssets(db, assetIds)) {
    const parsed = storedParameterDefinitionSchema.safeParse(JSON.parse(row.definition));
    if (!parsed.success) continue;
    byAsset.set(row.data_source_id, [...(byAsset.get(row.data_source_id) ?? []), parsed.data]);
  }
  return byAsset;
}
