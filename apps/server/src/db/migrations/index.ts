import type { Migration } from 'kysely/migration';
import * as initial from './20261120_0001_initial.ts';
import * as accessModel from './20261120_0002_access_model.ts';
import * as sqlDataSources from './20261123_0003_sql_data_sources.ts';
import * as usageRecords from './20261123_0004_usage_records.ts';
import * as connectionNames from './20261123_0005_connection_names.ts';
import * as tokens from './20261123_0006_tokens.ts';
import * as webApi from './20261123_0007_web_api.ts';
import * as applicationLogFilters from './20261123_0009_application_log_filters.ts';
import * as tokenRevokedReason from './20261123_0010_token_revoked_reason.ts';
import * as downloads from './20261125_0011_downloads.ts';
import * as usageRollups from './20261125_0012_usage_rollups.ts';
import * as usageRecordIndexes from './20261126_0013_usage_record_indexes.ts';
import * as partialLogIndexes from './20261126_0014_partial_log_indexes.ts';
import * as downloadCancel from './20261128_0015_download_cancel.ts';
import * as privilegedOverride from './20261128_0016_privileged_override.ts';
import * as mcp from './20261128_0018_mcp.ts';
import * as assetVersions from './20261128_0019_asset_versions.ts';
import * as secretReferences from './20261128_0020_secret_references.ts';
import * as usageChannels from './20261128_0021_usage_channels.ts';

// Listed here rather than read from the folder, so the set is the same under Node, Vitest and any bundler.
export const migrations: Record<string, Migration> = {
  '20261120_0001_initial': initial,
  '20261120_0002_access_model': accessModel,
  '20261123_0003_sql_data_sources': sqlDataSources,
  '20261123_0004_usage_records': usageRecords,
  '20261123_0005_connection_names': connectionNames,
  '20261123_0006_tokens': tokens,
  '20261123_0007_web_api': webApi,
  '20261123_0009_application_log_filters': applicationLogFilters,
  '20261123_0010_token_revoked_reason': tokenRevokedReason,
  '20261125_0011_downloads': downloads,
  '20261125_0012_usage_rollups': usageRollups,
  '20261126_0013_usage_record_indexes': usageRecordIndexes,
  '20261126_0014_partial_log_indexes': partialLogIndexes,
  '20261128_0015_download_cancel': downloadCancel,
  '20261128_0016_privileged_override': privilegedOverride,
  '20261128_0018_mcp': mcp,
  '20261128_0019_asset_versions': assetVersions,
  '20261128_0020_secret_references': secretReferences,
  '20261128_0021_usage_channels': usageChannels,
};
