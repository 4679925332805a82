import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { jsString, jsonText, mName, mString, pythonString, rName, rString, shellWord } from './snippet-literals.ts';
import {
  buildSnippet,
  buildSnippets,
  configuredFormat,
  fileStem,
  snippetTools,
  snippetValues,
  TOKEN_PLACEHOLDER,
  type SnippetParameter,
  type SnippetRequest,
} from './snippets.ts';

// The snippet builder: which tools, which values, and literals that each language reads back as the very text
// that went in. JavaScript, the shell and Python read them back here (python3 and bash run on every machine
// that runs these tests); R and M, which do not run here, are checked against their grammar's escapes.

/** Values that break naive quoting: quotes, backslashes, shell expansions, controls, Unicode, invisible marks. */
const NASTY = [
  `O'Brien "the" \\ back\\slash`,
  'line one\nline two\r\n\ttabbed',
  '$HOME `id` $(id) %PATH% ${x}',
  'Zürich 😀 日本 Ωmega',
  'bidi \u202Eevil\u202C and sep \u2028 and zero\u200Bwidth',
  '#(lf) is not a line feed in M, nor #(#)',
];

const request = (overrides: Partial<SnippetRequest> = {}): SnippetRequest => ({
  callingLayerUrl: 'https://data.example.com/',
  assetUid: 'a1b2',
  assetName: 'Orders by country',
  parameters: [],
  format: 'json',
  ...overrides,
});

describe('snippetTools', () => {
  it('shows curl, Python and JavaScript when the asset configures no tool', () => {
    expect(snippetTools([])).toEqual(['curl', 'python', 'javascript']);
  });

  it('shows exactly the configured tools, in the contract’s order', () => {
    expect(snippetTools([{ tool: 'powerbi' }, { tool: 'r' }, { tool: 'curl' }])).toEqual(['curl', 'r', 'powerbi']);
    const kinds = buildSnippets(['python', 'powerquery'], request()).map((s) => s.kind);
    expect(kinds).toEqual(['python', 'pandas', 'powerquery']);
  });

  it('takes a known format from a tool’s settings and ignores others', () => {
    expect(configuredFormat([{ tool: 'curl', settings: { format: 'csv' } }])).toBe('csv');
    expect(configuredFormat([{ tool: 'curl', settings: { format: 'xml' } }])).toBeUndefined();
  });
});

describe('snippetValues', () => {
  const parameters: SnippetParameter[] = [
    { name: 'region', type: 'integer', required: true },
    { name: 'country', type: 'string', list: true, required: true },
    { name: 'segment', type: 'string', required: true, allowedValues: { kind: 'fixed', options: [{ value: 'B2B' }] } },
    { name: 'minOrders', type: 'integer', default: 1 },
    { name: 'active', type: 'boolean', default: 'true' },
    { name: 'minTotal', type: 'decimal' },
  ];

  it('sends given values, then defaults, then for required ones a fixed option or an example', () => {
    const { sent, optional } = snippetValues(parameters, { region: '7', country: 'DE', minTotal: '' });
    expect(sent).toEqual([
      ['region', 7],
      ['country', ['DE']],
      ['segment', 'B2B'],
      ['minOrders', 1],
      ['active', true],
    ]);
    expect(optional.map((p) => p.name)).toEqual(['minTotal']);
  });

  it('says which values are only examples of their type', () => {
    const { sent, examples } = snippetValues(parameters, { country: ['DE'] });
    expect(sent.slice(0, 3)).toEqual([
      ['region', 1],
      ['country', ['DE']],
      ['segment', 'B2B'],
    ]);
    expect(examples).toEqual(['region']);
    const code = buildSnippet('python', request({ parameters, values: { country: ['DE'] } })).code;
    expect(code).toContain('# Example values, replace them: region\n# Optional, not sent: minTotal (decimal)');
  });

  it('keeps decimals exact: a number only when it reads back the same', () => {
    const decimal: SnippetParameter[] = [{ name: 'x', type: 'decimal' }];
    expect(snippetValues(decimal, { x: '2.50' }).sent).toEqual([['x', '2.50']]);
    expect(snippetValues(decimal, { x: '2.5' }).sent).toEqual([['x', 2.5]]);
    expect(snippetValues(decimal, { x: '12345678901234567890.1' }).sent).toEqual([['x', '12345678901234567890.1']]);
  });
});

describe('literals read back as the text that went in', () => {
  it.each(NASTY)('JSON and JavaScript: %j', (text) => {
    expect(JSON.parse(jsonText(text))).toBe(text);
    expect(new Function(`return ${jsString(text)};`)()).toBe(text);
    expect(JSON.parse(jsonText({ [text]: [text, 1, true] }))).toEqual({ [text]: [text, 1, true] });
  });

  it.each(NASTY)('bash: %j', (text) => {
    const out = execFileSync('bash', ['-c', `printf '%s' ${shellWord(text)}`], { encoding: 'utf8' });
    expect(out).toBe(text);
  });

  it.each(NASTY)('Python: %j', (text) => {
    const program = `import sys, json; sys.stdout.write(json.dumps(${pythonString(text)}))`;
    const out = execFileSync('python3', ['-c', program], { encoding: 'utf8' });
    expect(JSON.parse(out)).toBe(text);
  });

  it('never leaves a control, separator or direction-changing character raw', () => {
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    const raw = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF]/u;
    for (const text of NASTY) {
      for (const literal of [jsString(text), pythonString(text), rString(text), mString(text), shellWord(text)]) {
        expect(literal).not.toMatch(raw);
      }
    }
  });

  it('writes R strings with R’s escapes and backticks names R reserves', () => {
    expect(rString(`a"b\\c\nd\u202Ee`)).toBe('"a\\"b\\\\c\\nd\\u{202E}e"');
    expect(rString('Zürich 😀')).toBe('"Zürich 😀"');
    expect(rName('region')).toBe('region');
    expect(rName('if')).toBe('`if`');
    expect(rName('_x')).toBe('`_x`');
  });

  it('writes M text with doubled quotes and #( ) escapes, and quotes names M reserves', () => {
    expect(mString('say "hi"')).toBe('"say ""hi"""');
    expect(mString('a\r\nb\tc')).toBe('"a#(cr)#(lf)b#(tab)c"');
    expect(mString('#(lf) #x (#)')).toBe('"#(#)(lf) #x (#)"');
    expect(mString('\u202E')).toBe('"#(202E)"');
    expect(mName('region')).toBe('region');
    expect(mName('each')).toBe('#"each"');
  });
});

describe('snippets', () => {
  const parameters: SnippetParameter[] = [
    { name: 'region', type: 'integer', required: true },
    { name: 'country', type: 'string', list: true, required: true },
    { name: 'from', type: 'date' },
  ];
  const values = { region: 3, country: ['DE', 'FR'] };

  it('call the asset at the calling layer’s base URL, in the chosen format', () => {
    for (const format of ['json', 'csv'] as const) {
      for (const kind of ['curl', 'python', 'pandas', 'javascript'] as const) {
        expect(buildSnippet(kind, request({ parameters, values, format })).code).toContain(
          `https://data.example.com/data/v1/a1b2?format=${format}`,
        );
      }
      const r = buildSnippet('r', request({ parameters, values, format })).code;
      expect(r).toContain('request("https://data.example.com/data/v1/a1b2")');
      expect(r).toContain(`req_url_query(format = "${format}")`);
    }
  });

  it('hold the placeholder, never a token, unless one is given; a token with odd characters is refused', () => {
    for (const snippet of buildSnippets(['curl', 'python', 'r', 'javascript', 'powerbi'], request())) {
      expect(snippet.code).toContain(TOKEN_PLACEHOLDER);
    }
    const token = 'dlp_abcDEF0123456789abcDEF0123456789abcDEF012345';
    expect(buildSnippet('curl', request({ token })).code).toContain(`'Authorization: Bearer ${token}'`);
    expect(buildSnippet('curl', request({ token: "x' ; rm -rf ~ '" })).code).toContain(TOKEN_PLACEHOLDER);
  });

  it('give Power Query a fixed base URL, RelativePath, Query (lists as lists) and the Authorization header', () => {
    const code = buildSnippet('powerquery', request({ parameters, values, format: 'csv' })).code;
    expect(code).toContain('Web.Contents(\n        "https://data.example.com",');
    expect(code).toContain('RelativePath = "data/v1/a1b2"');
    expect(code).toMatch(/Query = \[\s+format = "csv",\s+region = "3",\s+country = \{"DE", "FR"\}\s+\]/);
    expect(code).toContain('Headers = [Authorization = "Bearer <YOUR_TOKEN>"]');
    expect(code).toContain('Csv.Document(Source');
    expect(buildSnippet('powerbi', request({ parameters, values })).code).toContain('Json.Document(Source');
  });

  it('name optional parameters left out, send lists as lists and name the file after the asset', () => {
    const python = buildSnippet('python', request({ parameters, values }));
    expect(python.code).toContain('# Optional, not sent: from (date)');
    expect(python.code).toContain('"country": ["DE", "FR"],');
    expect(python.fileName).toBe('orders-by-country.py');
    expect(buildSnippet('r', request({ parameters, values: { region: 1, country: 'DE' } })).code).toContain(
      'country = list("DE")',
    );
    expect(fileStem('Ça va? 東京')).toBe('ca-va');
    expect(fileStem('東京')).toBe('data-asset');
  });

  it('keep comments on one line whatever the asset is called', () => {
    const code = buildSnippet('javascript', request({ assetName: 'Evil\n fetch("https://x")' })).code;
    expect(code.split('\n')[0]).toBe(
      '// Evil  fetch("https://x") from Data Lab: the rows as JSON (Node.js 18 or later, or a browser).',
    );
    expect(code.split('\n')[1]).toMatch(/^const token/);
  });
});

describe('client tool settings', () => {
  it("puts each tool's timeout in its snippets, and leaves the language's default without one", () => {
    const timed = request({ toolSettings: { curl: { timeoutSeconds: 45 }, python: { timeoutSeconds: 300 } } });
    expect(buildSnippet('curl', timed).code).toContain('--max-time 45');
    expect(buildSnippet('python', timed).code).toContain('urlopen(request, timeout=300)');
    expect(buildSnippet('pandas', timed).code).toContain('timeout=300');
    expect(buildSnippet('javascript', timed).code).not.toContain('AbortSignal.timeout');
    const js = request({ toolSettings: { javascript: { timeoutSeconds: 5 } }, format: 'json' });
    expect(buildSnippet('javascript', js).code).toContain('signal: AbortSignal.timeout(5000),');
    expect(buildSnippet('r', request({ toolSettings: { r: { timeoutSeconds: 9 } } })).code).toContain('req_timeout(9)');
    expect(buildSnippet('powerquery', request({ toolSettings: { powerquery: { timeoutSeconds: 9 } } })).code).toContain(
      'Timeout = #duration(0, 0, 0, 9)',
    );
    expect(buildSnippet('curl', request()).code).not.toContain('--max-time');
    expect(buildSnippet('curl', request({ toolSettings: { curl: { timeoutSeconds: 0 } } })).code).not.toContain(
      '--max-time',
    );
  });

  it('offers the pandas snippet unless Python says pandas: false', () => {
    const kinds = (settings: Record<string, unknown>) =>
      buildSnippets(['python'], request({ toolSettings: { python: settings } })).map((snippet) => snippet.kind);
    expect(kinds({})).toEqual(['python', 'pandas']);
    expect(kinds({ pandas: false })).toEqual(['python']);
  });
});
