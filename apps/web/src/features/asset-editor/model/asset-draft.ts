import type { ClientTool, DataSourceDetail } from '@datalab/contract/api/data-sources';
import {
  parameterTypes,
  type ParameterDefinitionInput,
  type ParameterType,
  type StoredParameter,
} from '@datalab/contract/parameters';
import { emptyRequest, requestDraftOf, type RequestDraft } from './request-draft.ts';
import { transformationDrafts, type TransformationDraft } from './transformation-draft.ts';

// The editor's copy of a data asset, SQL or Web API (the kind follows the chosen connection; the other kind's part
// is kept while the user switches, and only the kind's own part is sent). A parameter keeps whatever the form does not edit (allowed values,
// bounds, pattern, description) in `rest`, so saving from this screen never drops them. The definitions it sends
// are the contract's (@datalab/contract/parameters), which the server checks them against.

export { parameterTypes, type ParameterType };

type EditedFields = 'name' | 'label' | 'type' | 'list' | 'required' | 'default';

export interface ParameterDraft {
  name: string;
  label: string;
  type: ParameterType;
  list: boolean;
  required: boolean;
  /** As typed; lists as comma-separated values. */
  defaultText: string;
  rest: Omit<ParameterDefinitionInput, EditedFields>;
}

export type AssetKind = 'sql' | 'webapi';

export interface AssetDraft {
  name: string;
  description: string;
  kind: AssetKind;
  connectionId: number | null;
  sql: string;
  /** A Web API asset's request. */
  request: RequestDraft;
  /** A Web API asset's credential, one of its connection's; null: none. */
  credentialId: number | null;
  cacheTtlSeconds: number;
  rowCap: number;
  timeoutMs: number;
  maxExportRows: number;
  parameters: ParameterDraft[];
  transformations: TransformationDraft[];
  /** The client tools the asset's page offers snippets for. */
  clientTools: ClientTool[];
  /** A tool of the MCP endpoint for AI agents of the callers who may call it. */
  mcpAvailable: boolean;
}

/** A new asset offers the two snippets every caller can use. */
export const DEFAULT_CLIENT_TOOLS: readonly ClientTool[] = ['curl', 'python'];

export const emptyDraft = (connectionId: number | null, kind: AssetKind = 'sql'): AssetDraft => ({
  name: '',
  description: '',
  kind,
  connectionId,
  sql: '',
  request: emptyRequest(),
  credentialId: null,
  cacheTtlSeconds: 0,
  rowCap: 1000,
  timeoutMs: 30_000,
  maxExportRows: 1_000_000,
  parameters: [],
  transformations: [],
  clientTools: [...DEFAULT_CLIENT_TOOLS],
  mcpAvailable: false,
});

function parameterDraft(stored: StoredParameter): ParameterDraft {
  const { id: _id, position: _position, name, label, type, list, required, default: fallback, ...rest } = stored;
  const defaultText =
    fallback === undefined || fallback === null ? '' : Array.isArray(fallback) ? fallback.join(',') : String(fallback);
  return { name, label: label ?? '', type, list, required, defaultText, rest };
}

export function draftOf(asset: DataSourceDetail): AssetDraft {
  return {
    name: asset.name,
    description: asset.description,
    kind: asset.kind,
    connectionId: asset.connection?.id ?? null,
    sql: asset.sql,
    request: asset.webApi ? requestDraftOf(asset.webApi.request) : emptyRequest(),
    credentialId: asset.webApi?.credential?.id ?? null,
    cacheTtlSeconds: asset.cacheTtlSeconds,
    rowCap: asset.rowCap,
    timeoutMs: asset.timeoutMs,
    maxExportRows: asset.maxExportRows,
    parameters: [...asset.parameters].sort((a, b) => a.position - b.position).map(parameterDraft),
    transformations: transformationDrafts(asset.transformations),
    clientTools: asset.clientToolConfigurations.map((configuration) => configuration.tool),
    mcpAvailable: asset.mcpAvailable,
  };
}

export function newParameter(name: string): ParameterDraft {
  return { name, label: '', type: 'string', list: false, required: true, defaultText: '', rest: {} };
}

function typedDefault(type: ParameterType, text: string): unknown {
  if (type === 'boolean') return text === 'true';
  if (type === 'integer') return Number(text);
  return text;
}

/** The definitions as the save and preview calls take them. */
export function definitionsOf(parameters: readonly ParameterDraft[]): ParameterDefinitionInput[] {
  return parameters.map((p) => {
    const definition: ParameterDefinitionInput = {
      ...p.rest,
      name: p.name,
      type: p.type,
      list: p.list,
      required: p.required,
    };
    if (p.label.trim()) definition.label = p.label.trim();
    const text = p.defaultText.trim();
    if (text) {
      definition.default = p.list
        ? text.split(',').map((item) => typedDefault(p.type, item.trim()))
        : typedDefault(p.type, text);
    }
    return definition;
  });
}
