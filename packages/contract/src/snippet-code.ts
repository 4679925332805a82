import {
  commentText,
  jsKey,
  jsString,
  jsonText,
  mName,
  mString,
  pythonString,
  rName,
  rString,
  shellWord,
  type SnippetScalar,
  type SnippetValue,
} from './snippet-literals.ts';
import type { SnippetFormat, SnippetKind, SnippetParameter } from './snippets.ts';

// The code of each snippet (snippets.ts builds the call they share). Every program POSTs the values as a JSON
// object to `{url}?format=…` with the token in the Authorization header (never in a URL), and prints what came
// back; Power Query's M, which the Power BI service refreshes only from a fixed base URL, GETs with `RelativePath`
// and `Query` instead (a list goes as repeated keys).

export interface SnippetCall {
  /** The calling layer's base URL, no trailing slash. */
  base: string;
  /** `data/v1/{uid}`, relative to `base`. */
  relativePath: string;
  url: string;
  assetName: string;
  format: SnippetFormat;
  /** The token or the placeholder. */
  token: string;
  sent: [name: string, value: SnippetValue][];
  optional: SnippetParameter[];
  examples: string[];
  /** How long the program waits for the answer (the tool's settings); unset: the language's own default. */
  timeoutSeconds?: number | undefined;
}

export interface SnippetCode {
  label: string;
  howTo: string;
  extension: string;
  code: string;
}

const urlWithFormat = (call: SnippetCall) => `${call.url}?format=${call.format}`;

/** Comment lines about the values: examples to replace, optional parameters not sent. */
function valueNotes(call: SnippetCall): string[] {
  const notes: string[] = [];
  if (call.examples.length > 0) notes.push(`Example values, replace them: ${call.examples.join(', ')}`);
  if (call.optional.length > 0) {
    const names = call.optional.map((p) => `${p.name} (${p.list ? `list of ${p.type}` : p.type})`);
    notes.push(`Optional, not sent: ${names.join(', ')}`);
  }
  return notes.map(commentText);
}

const title = (call: SnippetCall, what: string) => commentText(`${call.assetName} from Data Lab: ${what}`);
const rowsWord = (call: SnippetCall) => (call.format === 'json' ? 'the rows as JSON' : 'the rows as CSV');

function curl(call: SnippetCall): SnippetCode {
  const body = jsonText(Object.fromEntries(call.sent));
  // No comments: an interactive zsh would run them as commands.
  const code = [
    `curl -sS --fail-with-body -X POST ${shellWord(urlWithFormat(call))}`,
    `  -H ${shellWord(`Authorization: Bearer ${call.token}`)}`,
    `  -H 'Content-Type: application/json'`,
    ...(call.timeoutSeconds ? [`  --max-time ${call.timeoutSeconds}`] : []),
    `  --data-raw ${shellWord(body)}`,
  ].join(' \\\n');
  return { label: 'curl', howTo: 'Run it in a bash or zsh terminal.', extension: 'sh', code };
}

function pythonLiteral(value: SnippetValue): string {
  if (Array.isArray(value)) return `[${value.map((item: SnippetScalar) => pythonLiteral(item)).join(', ')}]`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return pythonString(value as string);
}

/** The modules pythonRequest's lines use; a snippet's own imports go around them in alphabetical order. */
const pythonRequestImports = ['import json', 'import urllib.error', 'import urllib.request'];

/** The request and its sending, shared by the standard-library and pandas snippets. */
function pythonRequest(call: SnippetCall, read: string[]): string[] {
  const values = call.sent.map(([name, value]) => `    ${pythonString(name)}: ${pythonLiteral(value)},`);
  const notes = valueNotes(call);
  return [
    `TOKEN = ${pythonString(call.token)}`,
    `URL = ${pythonString(urlWithFormat(call))}`,
    ...notes.map((note) => `# ${note}`),
    values.length === 0 ? 'values = {}' : ['values = {', ...values, '}'].join('\n'),
    '',
    'request = urllib.request.Request(',
    '    URL,',
    '    data=json.dumps(values).encode("utf-8"),',
    '    headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"},',
    '    method="POST",',
    ')',
    'try:',
    `    with urllib.request.urlopen(request, timeout=${call.timeoutSeconds ?? 120}) as response:`,
    ...read.map((line) => `        ${line}`),
    'except urllib.error.HTTPError as error:',
    "    raise SystemExit(f\"{error.code}: {error.read().decode('utf-8', 'replace')}\")",
  ];
}

function python(call: SnippetCall): SnippetCode {
  const isJson = call.format === 'json';
  const lines = [
    `# ${title(call, rowsWord(call))} (Python 3, standard library only).`,
    ...(isJson ? [] : ['import csv', 'import io']),
    ...pythonRequestImports,
    '',
    ...pythonRequest(call, isJson ? ['result = json.load(response)'] : ['text = response.read().decode("utf-8-sig")']),
    '',
    ...(isJson
      ? ['rows = result["rows"]', 'print(len(rows), "rows" + (" (cut at the row cap)" if result["truncated"] else ""))']
      : ['rows = list(csv.DictReader(io.StringIO(text)))', 'print(len(rows), "rows")']),
    'for row in rows[:10]:',
    '    print(json.dumps(row))',
  ];
  return {
    label: 'Python',
    howTo: 'Save it as a file and run it with python3.',
    extension: 'py',
    code: lines.join('\n'),
  };
}

function pandas(call: SnippetCall): SnippetCode {
  const isJson = call.format === 'json';
  const lines = [
    `# ${title(call, 'a pandas DataFrame')}.`,
    'import io',
    ...pythonRequestImports,
    '',
    'import pandas as pd',
    '',
    ...pythonRequest(call, ['body = response.read()']),
    '',
    ...(isJson
      ? [
          'result = json.loads(body)',
          'frame = pd.DataFrame(result["rows"], columns=[column["name"] for column in result["columns"]])',
        ]
      : ['frame = pd.read_csv(io.BytesIO(body), encoding="utf-8-sig")']),
    'print(frame.head(10))',
  ];
  return {
    label: 'pandas',
    howTo: 'Run it where pandas is installed (pip install pandas), e.g. in a notebook.',
    extension: 'py',
    code: lines.join('\n'),
  };
}

function jsLiteral(value: SnippetValue): string {
  if (Array.isArray(value)) return `[${value.map((item: SnippetScalar) => jsLiteral(item)).join(', ')}]`;
  if (typeof value === 'string') return jsString(value);
  return String(value);
}

function javascript(call: SnippetCall): SnippetCode {
  const isJson = call.format === 'json';
  const values = call.sent.map(([name, value]) => `  ${jsKey(name)}: ${jsLiteral(value)},`);
  const notes = valueNotes(call);
  const lines = [
    `// ${title(call, rowsWord(call))} (Node.js 18 or later, or a browser).`,
    `const token = ${jsString(call.token)};`,
    `const url = ${jsString(urlWithFormat(call))};`,
    ...notes.map((note) => `// ${note}`),
    values.length === 0 ? 'const values = {};' : ['const values = {', ...values, '};'].join('\n'),
    '',
    'const response = await fetch(url, {',
    '  method: "POST",',
    '  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },',
    '  body: JSON.stringify(values),',
    ...(call.timeoutSeconds ? [`  signal: AbortSignal.timeout(${call.timeoutSeconds * 1000}),`] : []),
    '});',
    'if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);',
    ...(isJson
      ? [
          'const result = await response.json();',
          'console.log(`${result.rows.length} rows${result.truncated ? " (cut at the row cap)" : ""}`);',
          'for (const row of result.rows.slice(0, 10)) console.log(JSON.stringify(row));',
        ]
      : ['const text = await response.text();', 'console.log(text.split("\\r\\n").slice(0, 11).join("\\n"));']),
  ];
  return {
    label: 'JavaScript',
    howTo: 'Save it as a .mjs file and run it with node, or paste it into a browser console.',
    extension: 'mjs',
    code: lines.join('\n'),
  };
}

function rLiteral(value: SnippetValue): string {
  // A list() stays a JSON array even with one item (httr2 unboxes vectors of length one).
  if (Array.isArray(value)) return `list(${value.map((item: SnippetScalar) => rLiteral(item)).join(', ')})`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return rString(value as string);
}

function r(call: SnippetCall): SnippetCode {
  const isJson = call.format === 'json';
  const values = call.sent.map(([name, value]) => `  ${rName(name)} = ${rLiteral(value)}`);
  const notes = valueNotes(call);
  const hasValues = values.length > 0;
  const lines = [
    `# ${title(call, 'a data frame')} (R 4.1 or later with httr2).`,
    'library(httr2)',
    '',
    `token <- ${rString(call.token)}`,
    ...notes.map((note) => `# ${note}`),
    ...(hasValues ? [['values <- list(', values.join(',\n'), ')'].join('\n')] : []),
    '',
    `response <- request(${rString(call.url)}) |>`,
    `  req_url_query(format = ${rString(call.format)}) |>`,
    '  req_auth_bearer_token(token) |>',
    ...(hasValues ? ['  req_body_json(values) |>'] : []),
    ...(call.timeoutSeconds ? [`  req_timeout(${call.timeoutSeconds}) |>`] : []),
    '  req_perform()',
    isJson
      ? 'rows <- as.data.frame(resp_body_json(response, simplifyVector = TRUE)$rows)'
      : 'rows <- read.csv(text = resp_body_string(response), check.names = FALSE)',
    'print(head(rows, 10))',
  ];
  return {
    label: 'R',
    howTo: 'Run it in R or RStudio (install.packages("httr2")).',
    extension: 'R',
    code: lines.join('\n'),
  };
}

/** A query-string value in M: text, or a list of texts (sent as repeated keys). */
function mQueryValue(value: SnippetValue): string {
  const text = (item: SnippetScalar) => mString(String(item));
  return Array.isArray(value)
    ? `{${value.map((item: SnippetScalar) => text(item)).join(', ')}}`
    : text(value as SnippetScalar);
}

function mQuery(call: SnippetCall, where: string[]): string {
  const query = [
    `format = ${mString(call.format)}`,
    ...call.sent.map(([name, v]) => `${mName(name)} = ${mQueryValue(v)}`),
  ];
  const notes = valueNotes(call);
  const rows =
    call.format === 'json'
      ? [
          '    Result = Json.Document(Source, 65001),',
          '    Rows = Table.FromRecords(Result[rows], List.Transform(Result[columns], each [name]), MissingField.UseNull)',
        ]
      : [
          '    Csv = Csv.Document(Source, [Delimiter = ",", Encoding = 65001, QuoteStyle = QuoteStyle.Csv]),',
          '    Rows = Table.PromoteHeaders(Csv, [PromoteAllScalars = true])',
        ];
  return [
    `// ${title(call, 'a table')}.`,
    ...where.map((line) => `// ${line}`),
    '// When asked how to connect, choose Anonymous: the token goes in the Authorization header.',
    ...notes.map((note) => `// ${note}`),
    'let',
    '    Source = Web.Contents(',
    `        ${mString(call.base)},`,
    '        [',
    `            RelativePath = ${mString(call.relativePath)},`,
    '            Query = [',
    query.map((entry) => `                ${entry}`).join(',\n'),
    '            ],',
    `            Headers = [Authorization = ${mString(`Bearer ${call.token}`)}]${call.timeoutSeconds ? ',' : ''}`,
    ...(call.timeoutSeconds ? [`            Timeout = #duration(0, 0, 0, ${call.timeoutSeconds})`] : []),
    '        ]',
    '    ),',
    ...rows,
    'in',
    '    Rows',
  ].join('\n');
}

function powerQuery(call: SnippetCall): SnippetCode {
  const where = ['In Excel: Data > Get Data > From Other Sources > Blank Query > Advanced Editor, then paste this.'];
  return {
    label: 'Excel Power Query',
    howTo: 'Paste it into a blank query’s Advanced Editor in Excel.',
    extension: 'pq',
    code: mQuery(call, where),
  };
}

function powerBi(call: SnippetCall): SnippetCode {
  const where = [
    'In Power BI Desktop: Get data > Blank query > Advanced editor, then paste this.',
    'The base URL is fixed and the rest goes in RelativePath and Query, so the Power BI service can refresh it.',
  ];
  return {
    label: 'Power BI',
    howTo: 'Paste it into a blank query’s Advanced editor in Power BI Desktop, or save it as an M file.',
    extension: 'pq',
    code: mQuery(call, where),
  };
}

const builders: Record<SnippetKind, (call: SnippetCall) => SnippetCode> = {
  curl,
  python,
  pandas,
  r,
  javascript,
  powerquery: powerQuery,
  powerbi: powerBi,
};

export const snippetCode = (kind: SnippetKind, call: SnippetCall): SnippetCode => builders[kind](call);
