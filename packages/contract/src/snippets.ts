import { SNIPPET_TIMEOUT_MAX_SECONDS, type ClientTool } from './api/data-sources.ts';
import type { ParameterDefinition, ParameterType } from './parameters.ts';
import { snippetCode, type SnippetCall } from './snippet-code.ts';
import type { SnippetScalar, SnippetValue } from './snippet-literals.ts';

// Ready-to-paste calls of a data asset through the calling layer, one per client tool of the asset's client tool
// configuration (product §3, product §15): curl, Python (standard library, and pandas), R (httr2), JavaScript (fetch),
// Excel Power Query and Power BI (M). Pure functions of the asset's parameters, the values to send, the format and
// the calling layer's base URL, so the portal shows them and the server's tests run them. The token is the
// placeholder <YOUR_TOKEN> unless the caller passes one (the portal does so only with a token its user pasted,
// and only in the browser).

export type { SnippetScalar, SnippetValue } from './snippet-literals.ts';

/** The calling layer's path (product §15): an asset is called at `{base}/data/v1/{uid}`. */
export const CALLING_LAYER_PATH = '/data/v1';
export const TOKEN_PLACEHOLDER = '<YOUR_TOKEN>';

export const snippetFormats = ['json', 'csv'] as const;
export type SnippetFormat = (typeof snippetFormats)[number];

/** The tools shown when an asset's client tool configuration names none. */
export const DEFAULT_SNIPPET_TOOLS: readonly ClientTool[] = ['curl', 'python', 'javascript'];

export const snippetKinds = ['curl', 'python', 'pandas', 'r', 'javascript', 'powerquery', 'powerbi'] as const;
export type SnippetKind = (typeof snippetKinds)[number];

/** What each configured tool gives: Python gives a standard-library snippet and a pandas one. */
const kindsOfTool: Record<ClientTool, readonly SnippetKind[]> = {
  curl: ['curl'],
  python: ['python', 'pandas'],
  r: ['r'],
  javascript: ['javascript'],
  powerquery: ['powerquery'],
  powerbi: ['powerbi'],
};

/** A parameter as the snippets need it: the stored definition, or any part of it beyond name and type. */
export type SnippetParameter = Pick<ParameterDefinition, 'name' | 'type'> &
  Partial<Pick<ParameterDefinition, 'label' | 'list' | 'required' | 'default' | 'allowedValues'>>;

export interface SnippetRequest {
  /** The calling layer's base URL (the portal config's callingLayerUrl), without a trailing slash. */
  callingLayerUrl: string;
  assetUid: string;
  assetName: string;
  /** The asset's parameters, in their order. */
  parameters: readonly SnippetParameter[];
  /** Values to send (a call form's), by parameter name; the rest come from defaults or examples. */
  values?: Readonly<Record<string, unknown>>;
  format: SnippetFormat;
  /** A token the user pasted; otherwise the placeholder. Must look like a bearer token (isBearerToken). */
  token?: string | null;
  /** Each tool's settings (its client tool configuration): a timeout, pandas or not for Python. */
  toolSettings?: Partial<Record<ClientTool, Readonly<Record<string, unknown>>>> | undefined;
}

export interface Snippet {
  kind: SnippetKind;
  tool: ClientTool;
  /** The tab's name: 'curl', 'Python', 'pandas', 'R', 'JavaScript', 'Excel Power Query', 'Power BI'. */
  label: string;
  /** How to run it, in a sentence. */
  howTo: string;
  /** A file name to save it as (the asset's name, slugged, and the language's extension). */
  fileName: string;
  code: string;
}

/** RFC 6750's b64token: what a bearer token may be made of (Data Lab's secrets and JWTs both are). */
export const isBearerToken = (text: string) => /^[A-Za-z0-9\-._~+/]+=*$/.test(text);

/** The tools to show for a client tool configuration: those it names, in the contract's order, or the defaults. */
export function snippetTools(configurations: readonly { tool: ClientTool }[]): ClientTool[] {
  const named = new Set(configurations.map((configuration) => configuration.tool));
  const order = Object.keys(kindsOfTool) as ClientTool[];
  return named.size === 0 ? [...DEFAULT_SNIPPET_TOOLS] : order.filter((tool) => named.has(tool));
}

/** The format a tool's settings ask for (`settings.format`), if it is one the snippets know. */
export function configuredFormat(
  configurations: readonly { tool: ClientTool; settings: Record<string, unknown> }[],
): SnippetFormat | undefined {
  const asked = configurations.map((configuration) => configuration.settings['format']);
  return snippetFormats.find((format) => asked.includes(format));
}

const samples: Record<ParameterType, SnippetScalar> = {
  string: 'text',
  integer: 1,
  decimal: 1.5,
  boolean: true,
  date: '2026-01-31',
  'date-time': '2026-01-31T09:00:00Z',
};

const isAbsent = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A value as the snippet writes it: integers, booleans and exact decimals as numbers, the rest as text. */
function typedScalar(type: ParameterType, raw: unknown): SnippetScalar {
  if (typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw))) return raw;
  if (typeof raw !== 'string') return JSON.stringify(raw) ?? String(raw);
  const text = raw.trim();
  if (type === 'integer' && /^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (type === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (type === 'decimal' && /^-?\d+(\.\d+)?$/.test(text) && String(Number(text)) === text) return Number(text);
  return raw;
}

function typedValue(parameter: SnippetParameter, raw: unknown): SnippetValue {
  if (Array.isArray(raw)) return raw.map((item: unknown) => typedScalar(parameter.type, item));
  const one = typedScalar(parameter.type, raw);
  return parameter.list ? [one] : one;
}

export interface SnippetValues {
  /** What the snippet sends, in the parameters' order. */
  sent: [name: string, value: SnippetValue][];
  /** Optional parameters without a value or a default: named in a comment, not sent. */
  optional: SnippetParameter[];
  /** Required parameters sent with an example of their type (nothing better was known): to replace. */
  examples: string[];
}

/**
 * The values a snippet sends: the given value, else the parameter's default, else (when it is required) its first
 * fixed option or an example of its type. Optional parameters without either are left out.
 */
export function snippetValues(
  parameters: readonly SnippetParameter[],
  values: Readonly<Record<string, unknown>> = {},
): SnippetValues {
  const result: SnippetValues = { sent: [], optional: [], examples: [] };
  for (const parameter of parameters) {
    const given = values[parameter.name];
    const fixed = parameter.allowedValues?.kind === 'fixed' ? parameter.allowedValues.options[0]?.value : undefined;
    let raw: unknown;
    if (!isAbsent(given)) raw = given;
    else if (!isAbsent(parameter.default)) raw = parameter.default;
    else if (fixed !== undefined && parameter.required) raw = fixed;
    else if (parameter.required) {
      raw = samples[parameter.type];
      result.examples.push(parameter.name);
    }
    if (raw === undefined) result.optional.push(parameter);
    else result.sent.push([parameter.name, typedValue(parameter, raw)]);
  }
  return result;
}

/** What a parameter data source offers, as GET /api/DataSource/ParameterData/{id} answers it. */
export type OptionsFetcher<P extends SnippetParameter> = (
  parameter: P,
  parentValues: Record<string, string | string[]>,
) => Promise<readonly { value: unknown }[]>;

const asQueryValue = (value: SnippetValue): string | string[] =>
  Array.isArray(value) ? value.map((item) => String(item)) : String(value);

/**
 * Example values a snippet can really send for the required parameters whose values come from a parameter data
 * source and that have neither a value nor a default: each one's first option, asked for with the values sent
 * before it (its parents', in the parameters' order). An invented example ("text") would answer 400. Answers the
 * values found, by name; a parameter whose data source offers nothing is left to the usual example.
 */
export async function dataSourceExamples<P extends SnippetParameter>(
  parameters: readonly P[],
  values: Readonly<Record<string, unknown>>,
  fetchOptions: OptionsFetcher<P>,
): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const allowed = parameter.allowedValues;
    if (allowed?.kind !== 'dataSource' || !parameter.required) continue;
    if (!isAbsent(values[parameter.name]) || !isAbsent(parameter.default)) continue;
    const sent = new Map(snippetValues(parameters, { ...values, ...found }).sent);
    const parentValues: Record<string, string | string[]> = {};
    for (const parent of allowed.dependsOn) {
      const value = sent.get(parent);
      if (value !== undefined) parentValues[parent] = asQueryValue(value);
    }
    const [first] = await fetchOptions(parameter, parentValues);
    if (first !== undefined && !isAbsent(first.value)) found[parameter.name] = first.value;
  }
  return found;
}

/** A file-name stem from an asset's name: lower-case letters, digits and dashes. */
export function fileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || 'data-asset';
}

/** A tool's timeout setting, when it is a whole number of seconds in range. */
function timeoutOf(settings: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const value = settings?.['timeoutSeconds'];
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= SNIPPET_TIMEOUT_MAX_SECONDS
    ? value
    : undefined;
}

function callOf(request: SnippetRequest, tool: ClientTool): SnippetCall {
  const base = request.callingLayerUrl.replace(/\/+$/, '');
  const relativePath = `${CALLING_LAYER_PATH.slice(1)}/${encodeURIComponent(request.assetUid)}`;
  const token = request.token && isBearerToken(request.token) ? request.token : TOKEN_PLACEHOLDER;
  return {
    base,
    relativePath,
    url: `${base}/${relativePath}`,
    assetName: request.assetName,
    format: request.format,
    token,
    ...snippetValues(request.parameters, request.values),
    timeoutSeconds: timeoutOf(request.toolSettings?.[tool]),
  };
}

/** One snippet. */
export function buildSnippet(kind: SnippetKind, request: SnippetRequest): Snippet {
  const tool = (Object.keys(kindsOfTool) as ClientTool[]).find((t) => kindsOfTool[t].includes(kind)) ?? 'curl';
  const { label, howTo, extension, code } = snippetCode(kind, callOf(request, tool));
  return { kind, tool, label, howTo, fileName: `${fileStem(request.assetName)}.${extension}`, code };
}

/** The snippets of the given tools, in the tools' order; Python's pandas one unless its settings say `pandas: false`. */
export function buildSnippets(tools: readonly ClientTool[], request: SnippetRequest): Snippet[] {
  const kindsOf = (tool: ClientTool) =>
    kindsOfTool[tool].filter((kind) => kind !== 'pandas' || request.toolSettings?.python?.['pandas'] !== false);
  return tools.flatMap((tool) => kindsOf(tool).map((kind) => buildSnippet(kind, request)));
}

/** Each configured tool's settings, by tool (what buildSnippets takes as `toolSettings`). */
export function settingsByTool(
  configurations: readonly { tool: ClientTool; settings: Record<string, unknown> }[],
): Partial<Record<ClientTool, Record<string, unknown>>> {
  return Object.fromEntries(configurations.map((configuration) => [configuration.tool, configuration.settings]));
}
