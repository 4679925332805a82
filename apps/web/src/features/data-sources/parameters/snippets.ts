import type { FormParameter } from './definition.ts';

// Ready-to-paste calls of an asset. They never hold a token: the caller's own goes in DATALAB_TOKEN.

export const TOKEN_VARIABLE = 'DATALAB_TOKEN';

const samples: Record<FormParameter['type'], unknown> = {
  string: 'text',
  integer: 1,
  decimal: '1.5',
  boolean: true,
  date: '2026-01-31',
  'date-time': '2026-01-31T09:00:00Z',
};

/** An example body: each parameter's default, else its first fixed option, else a sample of its type. */
export function exampleValues(parameters: readonly FormParameter[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const fixed = parameter.allowedValues?.kind === 'fixed' ? parameter.allowedValues.options[0]?.value : undefined;
    const one = parameter.default ?? fixed ?? samples[parameter.type];
    values[parameter.name] = parameter.list && !Array.isArray(one) ? [one] : one;
  }
  return values;
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlSnippet(url: string, values: Record<string, unknown>): string {
  const lines = [
    `curl -X POST ${shellQuote(`${url}?format=json`)}`,
    `  -H "Authorization: Bearer $${TOKEN_VARIABLE}"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(values))}`,
  ];
  return lines.join(' \\\n');
}

function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return JSON.stringify(value);
}

export function pythonSnippet(url: string, values: Record<string, unknown>): string {
  const entries = Object.entries(values).map(
    ([name, value]) => `        ${JSON.stringify(name)}: ${pythonLiteral(value)},`,
  );
  return [
    'import os',
    '',
    'import requests',
    '',
    'response = requests.post(',
    `    ${JSON.stringify(url)},`,
    '    params={"format": "json"},',
    `    headers={"Authorization": f"Bearer {os.environ['${TOKEN_VARIABLE}']}"},`,
    entries.length > 0 ? ['    json={', ...entries, '    },'].join('\n') : '    json={},',
    '    timeout=120,',
    ')',
    'response.raise_for_status()',
    'result = response.json()',
    'print(len(result["rows"]), "rows", "(truncated)" if result["truncated"] else "")',
  ].join('\n');
}
