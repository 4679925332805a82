import {
  DEFINITION_API_VERSION,
  DEFINITION_KIND,
  definitionDocument,
  type DefinitionDocument,
} from '@datalab/contract/api/definition-document';
import type { Connection, WebApiCredentialRow } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { parseOptions } from '../connections/runtime.service.ts';
import type { CollectionState } from './repository.ts';
import { writeYaml } from './yaml-writer.ts';

// A collection's state as a definition document: everything by name, secrets as references, named lists sorted
// by name (parameters and transformations keep their order), keys in the schema's order. The raw document goes
// through the document schema itself, so export and a parsed document have one shape: what plan compares, and
// what makes two exports of one state byte-equal.

const slug = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._/-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '') || 'secret';

/** The reference a SQL connection's password goes by: the one a document set, or `<connection>.password`. */
export const connectionSecretRef = (row: Pick<Connection, 'name' | 'secret_ref'>) =>
  row.secret_ref ?? `${slug(row.name)}.password`;

/** The reference a credential's secret goes by: the one a document set, or `<connection>.<credential>.secret`. */
export const credentialSecretRef = (
  connection: Pick<Connection, 'name'>,
  row: Pick<WebApiCredentialRow, 'name'> & { secret_ref: string | null },
) => row.secret_ref ?? `${slug(connection.name)}.${slug(row.name)}.secret`;

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function json<T>(text: string | null | undefined, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

/** Rows by a key, in their order (the queries sort them). */
function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

const sortedRecord = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The document of a collection's state, parsed by the document schema (its canonical form). */
export function documentOf(state: CollectionState): DefinitionDocument {
  const assetNames = new Map<string, string>();
  for (const asset of state.assets) {
    assetNames.set(asset.uid, asset.name);
    assetNames.set(String(asset.id), asset.name);
  }
  const connectionsById = new Map(state.connections.map((c) => [c.id, c]));
  const credentialsById = new Map(state.credentials.map((c) => [c.id, c]));

  const sqlConnections = state.connections
    .filter((c) => c.kind === 'sql')
    .map((c) => {
      const network = c.driver !== 'sqlite';
      return {
        name: c.name,
        description: c.description,
        driver: c.driver,
        ...(network && c.host ? { host: c.host } : {}),
        ...(network && c.port ? { port: c.port } : {}),
        database: c.database_name ?? '',
        ...(network && c.username ? { username: c.username } : {}),
        ...(c.secret ? { password: { secret: connectionSecretRef(c) } } : {}),
        ssl: parseOptions(c.options).ssl === true,
        poolMax: c.pool_max,
        acquireTimeoutMs: c.acquire_timeout_ms,
      };
    })
    .sort(byName);

  const webApiConnections = state.connections
    .filter((c) => c.kind === 'webapi')
    .map((c) => ({
      name: c.name,
      description: c.description,
      baseUrl: c.base_url ?? '',
      headers: sortedRecord(json<Record<string, string>>(c.default_headers, {})),
      allowedHosts: json<string[]>(c.allowed_hosts, []),
      connectTimeoutMs: c.connect_timeout_ms,
      headersTimeoutMs: c.headers_timeout_ms,
      bodyTimeoutMs: c.body_timeout_ms,
      maxReplyBytes: c.max_reply_bytes,
      maxPages: c.max_pages,
      maxConnections: c.pool_max,
      acquireTimeoutMs: c.acquire_timeout_ms,
      retries: c.retries,
      credentials: state.credentials
        .filter((k) => k.connection_id === c.id)
        .map((k) => ({
          name: k.name,
          kind: k.kind,
          settings: json<Record<string, unknown>>(k.settings, {}),
          ...(k.secret ? { secret: { secret: credentialSecretRef(c, k) } } : {}),
        }))
        .sort(byName),
    }))
    .sort(byName);

  const rulesOf = new Map<number, unknown[]>();
  for (const rule of state.rules) {
    const list = rulesOf.get(rule.transformation_id) ?? [];
    list.push(json<unknown>(rule.rule, {}));
    rulesOf.set(rule.transformation_id, list);
  }

  const parametersOf = groupBy(state.parameters, (p) => p.data_source_id);
  const transformationsOf = groupBy(state.transformations, (t) => t.data_source_id);
  const toolsOf = groupBy(state.tools, (t) => t.data_source_id);

  const dataAssets = state.assets
    .map((a) => {
      const connection = a.connection_id === null ? undefined : connectionsById.get(a.connection_id);
      const parameters = (parametersOf.get(a.id) ?? []).map((p) => {
        const definition = json<Record<string, unknown>>(p.definition, {});
        const allowed = definition['allowedValues'] as Record<string, unknown> | undefined;
        if (allowed?.['kind'] !== 'dataSource') return definition;
        const { dataSourceId, ...rest } = allowed;
        const name = assetNames.get(String(dataSourceId)) ?? String(dataSourceId);
        return { ...definition, allowedValues: { kind: 'dataSource', dataAsset: name, ...rest } };
      });
      const transformations = (transformationsOf.get(a.id) ?? []).map((t) => ({
        name: t.name,
        rules: rulesOf.get(t.id) ?? [],
      }));
      const clientTools = (toolsOf.get(a.id) ?? [])
        .map((t) => ({ tool: t.tool, settings: json<Record<string, unknown>>(t.settings, {}) }))
        .sort((x, y) => (x.tool < y.tool ? -1 : x.tool > y.tool ? 1 : 0));
      const common = {
        name: a.name,
        kind: a.kind,
        description: a.description,
        connection: connection?.name ?? '',
        cacheTtlSeconds: a.cache_ttl_seconds,
        rowCap: a.row_cap,
        timeoutMs: a.timeout_ms,
        maxExportRows: a.max_export_rows,
        mcpAvailable: a.mcp_available === 1,
        parameters,
        transformations,
        clientTools,
      };
      if (a.kind === 'sql') return { ...common, sql: a.sql_text };
      const { credential: _credential, ...request } = json<Record<string, unknown>>(a.request_definition, {});
      const credential = a.credential_id === null ? undefined : credentialsById.get(a.credential_id);
      return { ...common, request, ...(credential ? { credential: credential.name } : {}) };
    })
    .sort(byName);

  const raw = {
    apiVersion: DEFINITION_API_VERSION,
    kind: DEFINITION_KIND,
    collection: {
      name: state.collection.name,
      description: state.collection.description,
      mcpEnabled: state.collection.mcp_enabled === 1,
    },
    sqlConnections,
    webApiConnections,
    dataAssets,
    dataRoles: {
      groups: state.groups
        .map((g) => ({ group: g.name, role: g.role }))
        .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0)),
      users: state.users
        .filter((u) => u.username !== null)
        .map((u) => ({ username: u.username ?? '', role: u.role }))
        .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0)),
    },
    prune: false,
  };
  const parsed = definitionDocument.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Something saved before today's rules (a pattern RE2 cannot run, say): name it rather than fail blindly.
  const issue = parsed.error.issues[0];
  throw new AppError({
    status: 409,
    code: 'conflict',
    title: `The collection holds what a definition document cannot express: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}; change it first`,
  });
}

/** YAML with fixed formatting (yaml-writer.ts): two exports of one state are byte-equal. */
export function documentYaml(document: DefinitionDocument): string {
  return writeYaml(document);
}
