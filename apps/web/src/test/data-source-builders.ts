import type { z } from 'zod';
import type { dataSourceDetail, dataSourceSummary } from '@datalab/contract/api/data-sources';
import type { sqlConnection } from '@datalab/contract/api/sql-connections';

// Data assets as the server sends them (wire form: date-times as ISO text), for the fake API to serve.

type Wire<S extends z.ZodType> = z.input<S>;

export function buildDataSourceSummary(
  overrides: Partial<Wire<typeof dataSourceSummary>> = {},
): Wire<typeof dataSourceSummary> {
  return {
    id: 11,
    uid: 'orders-by-country',
    name: 'Orders by country',
    description: 'Orders of one country, newest first',
    kind: 'sql',
    collection: { uid: 'col-1', name: 'Sales' },
    connectionName: 'shop',
    parameterCount: 2,
    myRole: 'Reader',
    updatedAt: '2026-01-06T10:00:00.000Z',
    ...overrides,
  };
}

export function buildDataSourceDetail(
  overrides: Partial<Wire<typeof dataSourceDetail>> = {},
): Wire<typeof dataSourceDetail> {
  return {
    ...buildDataSourceSummary(),
    sql: 'SELECT id, email, total FROM orders WHERE country = :country',
    version: 3,
    cacheTtlSeconds: 0,
    rowCap: 1000,
    timeoutMs: 30_000,
    maxExportRows: 1_000_000,
    mcpAvailable: false,
    connection: { id: 5, name: 'shop', kind: 'sqlite' },
    parameters: [
      {
        id: 101,
        position: 0,
        name: 'region',
        label: 'Region',
        type: 'string',
        required: true,
        allowedValues: {
          kind: 'dataSource',
          dataSourceId: 12,
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: [],
        },
      },
      {
        id: 102,
        position: 1,
        name: 'country',
        label: 'Country',
        type: 'string',
        required: true,
        allowedValues: {
          kind: 'dataSource',
          dataSourceId: 13,
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: ['region'],
        },
      },
    ],
    transformations: [
      {
        id: 1,
        position: 0,
        name: 'Privacy',
        rules: [{ id: 1, position: 0, type: 'mask', column: 'email', mode: 'partial' }],
      },
    ],
    clientToolConfigurations: [],
    createdAt: '2026-01-05T09:30:00.000Z',
    can: { edit: false },
    ...overrides,
  };
}

export const regionOptions = {
  options: [
    { value: 'EU', label: 'Europe' },
    { value: 'AS', label: 'Asia' },
  ],
};

export function countryOptions(region: string | null) {
  const byRegion: Record<string, { value: string; label: string }[]> = {
    EU: [
      { value: 'FR', label: 'France' },
      { value: 'DE', label: 'Germany' },
    ],
    AS: [{ value: 'JP', label: 'Japan' }],
  };
  return { options: byRegion[region ?? ''] ?? [] };
}

export const callReply = {
  columns: [
    { name: 'id', type: 'integer' },
    { name: 'email', type: 'string' },
    { name: 'total', type: 'decimal' },
  ],
  rows: [
    { id: 2, email: 'b***@shop.test', total: 20 },
    { id: 1, email: 'a***@shop.test', total: null },
  ],
  truncated: true,
  durationMs: 12,
  cached: false,
};

/** What POST /api/DataSource/{uid}/BoundValues answers for the asset above: region is not used by its SQL. */
export function boundValuesReply(values: Record<string, unknown>) {
  return {
    bindings: [
      { name: 'region', type: 'string', list: false, value: values['region'] ?? null, inSql: false },
      { name: 'country', type: 'string', list: false, value: values['country'] ?? null, inSql: true },
    ],
  };
}

export function recentCallsReply(scope: 'mine' | 'everyone' = 'mine') {
  const caller = scope === 'mine' ? { id: 1, name: 'Reader' } : { id: 7, name: 'Ann Analyst' };
  return {
    scope,
    items: [
      {
        id: 2,
        at: '2026-01-06T10:05:00.000Z',
        caller,
        viaToken: false,
        status: 200,
        rows: 2,
        bytes: 1536,
        durationMs: 12,
        cacheHit: false,
        format: 'json',
      },
      {
        id: 1,
        at: '2026-01-06T10:00:00.000Z',
        caller,
        viaToken: scope === 'everyone',
        status: 400,
        rows: 0,
        bytes: 120,
        durationMs: 1,
        cacheHit: false,
        format: 'csv',
      },
    ],
  };
}

export function buildSqlConnection(overrides: Partial<Wire<typeof sqlConnection>> = {}): Wire<typeof sqlConnection> {
  return {
    id: 5,
    collectionUid: 'col-1',
    name: 'warehouse',
    description: 'The reporting replica',
    kind: 'postgres',
    host: 'db.internal',
    port: 5432,
    database: 'shop',
    username: 'reader',
    password: '********',
    ssl: false,
    poolMax: 5,
    acquireTimeoutMs: 2000,
    allowPrivilegedAccount: false,
    assetCount: 2,
    createdAt: '2026-01-05T09:30:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    ...overrides,
  };
}
