// The YAML of an export, written directly: block style, two-space indent, keys in the order given, a string plain
// only when it cannot read as anything else (otherwise JSON-quoted, which YAML reads the same), SQL and other
// multi-line text as literal blocks so a diff shows the lines that changed. The `yaml` package writes the same
// document too, but takes seconds for a collection of 500 assets; this is as fast as JSON.stringify. Reading stays
// with the `yaml` package (safe parsing, alias caps); the tests parse every export back and compare it.

type Value = unknown;

const PLAIN = /^[A-Za-z_/][A-Za-z0-9 _./()-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
// eslint-disable-next-line no-control-regex -- a control character forces a quoted string
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029\uFEFF]/;

function plain(text: string): boolean {
  return PLAIN.test(text) && !text.endsWith(' ') && !RESERVED.test(text) && !text.includes('  ');
}

/** Multi-line text that a literal block (`|-`) carries exactly. */
function literalBlock(text: string): boolean {
  if (!text.includes('\n') || text.endsWith('\n') || text.includes('\r') || CONTROL.test(text)) return false;
  const lines = text.split('\n');
  const first = lines.find((line) => line !== '');
  return first !== undefined && !/^\s/.test(first) && lines.every((line) => !/\s$/.test(line));
}

function scalar(value: Value): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  const text = String(value);
  return plain(text) ? text : JSON.stringify(text);
}

const isMap = (value: Value): value is Record<string, Value> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One entry's value after `key:` or `-`: on the same line, or the lines below at `indent`. */
function after(value: Value, indent: number): string {
  if (Array.isArray(value)) return value.length === 0 ? ' []' : `\n${sequence(value, indent)}`;
  if (isMap(value)) return Object.keys(value).length === 0 ? ' {}' : `\n${mapping(value, indent)}`;
  if (typeof value === 'string' && literalBlock(value)) {
    const pad = ' '.repeat(indent);
    return ` |-\n${value
      .split('\n')
      .map((line) => (line === '' ? '' : pad + line))
      .join('\n')}`;
  }
  return ` ${scalar(value)}`;
}

function mapping(map: Record<string, Value>, indent: number): string {
  const pad = ' '.repeat(indent);
  return Object.entries(map)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${pad}${scalar(key)}:${after(value, indent + 2)}`)
    .join('\n');
}

function sequence(list: readonly Value[], indent: number): string {
  const pad = ' '.repeat(indent);
  return list
    .map((item) => {
      if (isMap(item) && Object.keys(item).length > 0) {
        // The map's first key goes on the dash's line; the rest line up under it.
        return `${pad}- ${mapping(item, indent + 2).slice(indent + 2)}`;
      }
      return `${pad}-${after(item, indent + 2)}`;
    })
    .join('\n');
}

/** The document as YAML text, ending with a line break. */
export function writeYaml(document: Record<string, Value>): string {
  return `${mapping(document, 0)}\n`;
}
