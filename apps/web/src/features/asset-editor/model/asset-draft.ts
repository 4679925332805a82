import type { ClientTool, DataSourceDetail } from '@datalab/contract/api/data-sources';
import { transformationDrafts, type TransformationDraft } from './transformation-draft.ts';

// The editor's copy of a SQL data asset. A parameter keeps whatever the form does not edit (allowed values,
// bounds, pattern, description) in `rest`, so saving from this screen never drops them.

export const parameterTypes = ['string', 'integer', 'decimal', 'boolean', 'date', 'date-time'] as const;
export type ParameterType = (typeof parameterTypes)[number];

export interface ParameterDraft {
  name: string;
  label: string;
  type: ParameterType;
  list: boolean;
  required: boolean;
  /** As typed; lists as comma-separated values. */
  defaultText: string;
  rest: Record<string, unknown>;
}

export interface AssetDraft {
  name: string;
  description: string;
  connectionId: number | null;
  sql: string;
  cacheTtlSeconds: number;
  rowCap: number;
  timeoutMs: number;
  maxExportRows: number;
  parameters: ParameterDraft[];
  transformations: TransformationDraft[];
  /** The client tools the asset's page offers snippets for. */
  clientTools: ClientTool[];
}

/** A new asset offers the two snippets every caller can use. */
export const DEFAULT_CLIENT_TOOLS: readonly ClientTool[] = ['curl', 'python'];

export const emptyDraft = (connectionId: number | null): AssetDraft => ({
  name: '',
  description: '',
  connectionId,
  sql: '',
  cacheTtlSeconds: 0,
  rowCap: 1000,
  timeoutMs: 30_000,
  maxExportRows: 1_000_000,
  parameters: [],
  transformations: [],
  clientTools: [...DEFAULT_CLIENT_TOOLS],
});

const asType = (value: unknown): ParameterType => parameterTypes.find((type) => type === value) ?? 'string';

function parameterDraft(stored: Record<string, unknown>): ParameterDraft {
  const { id: _id, position: _position, name, label, type, list, required, default: fallback, ...rest } = stored;
  const defaultText =
    fallback === undefined || fallback === null ? '' : Array.isArray(fallback) ? fallback.join(',') : String(fallback);
  return {
    name: String(name),
    label: typeof label === 'string' ? label : '',
    type: asType(type),
    list: list === true,
    required: required === true,
    defaultText,
    rest,
  };
}

export function draftOf(asset: DataSourceDetail): AssetDraft {
  return {
    name: asset.name,
    description: asset.description,
    connectionId: asset.connection?.id ?? null,
    sql: asset.sql,
    cacheTtlSeconds: asset.cacheTtlSeconds,
    rowCap: asset.rowCap,
    timeoutMs: asset.timeoutMs,
    maxExportRows: asset.maxExportRows,
    parameters: [...asset.parameters].sort((a, b) => a.position - b.position).map(parameterDraft),
    transformations: transformationDrafts(asset.transformations),
    clientTools: asset.clientToolConfigurations.map((configuration) => configuration.tool),
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

/** The definitions as the engine takes them. */
export function definitionsOf(parameters: readonly ParameterDraft[]): Record<string, unknown>[] {
  return parameters.map((p) => {
    const definition: Record<string, unknown> = {
      ...p.rest,
      name: p.name,
      type: p.type,
      list: p.list,
      required: p.required,
    };
    if (p.label.trim()) definition['label'] = p.label.trim();
    const text = p.defaultText.trim();
    if (text) {
      definition['default'] = p.list
        ? text.split(',').map((item) => typedDefault(p.type, item.trim()))
        : typedDefault(p.type, text);
    }
    return definition;
  });
}
