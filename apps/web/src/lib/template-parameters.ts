// The `{name}` placeholders a Web API request uses, in order of first use (path, query values, header values, then
// the body), as the editor offers them for definition: the same places and the same name rule as the engine's
// detectTemplateParameters, which the server runs on save. A body that is not valid JSON yet is scanned as text, so
// the offer does not flicker while it is typed.

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/gu;

export interface TemplateSources {
  path: string;
  query: readonly string[];
  headers: readonly string[];
  /** The body template as typed (JSON text). */
  body: string;
}

function namesIn(text: string, into: string[]): void {
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name !== undefined && !into.includes(name)) into.push(name);
  }
}

function namesInJson(value: unknown, into: string[]): void {
  if (typeof value === 'string') namesIn(value, into);
  else if (Array.isArray(value)) value.forEach((item) => namesInJson(item, into));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((item) => namesInJson(item, into));
}

export function detectTemplateParameters({ path, query, headers, body }: TemplateSources): string[] {
  const names: string[] = [];
  namesIn(path, names);
  query.forEach((value) => namesIn(value, names));
  headers.forEach((value) => namesIn(value, names));
  if (body.trim() !== '') {
    try {
      namesInJson(JSON.parse(body), names);
    } catch {
      namesIn(body, names);
    }
  }
  return names;
}
