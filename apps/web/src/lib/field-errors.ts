import type { ErrorsMap } from '@datalab/contract/errors';

// The server names a refused field by its path in the request: `name`, `minTotal`, `parameters.0.name`, or, for
// what the framework checks before the route, `querystring.uid` or `body.name`. People read labels: this words
// a path for a toast ('Min total', 'Parameters 1 › Name', 'UID'), and tells which fields a form already shows
// under themselves, so the toast does not say them twice.

const LOCATIONS = new Set(['body', 'querystring', 'query', 'params', 'headers']);
const ACRONYMS = new Map([
  ['id', 'ID'],
  ['uid', 'UID'],
  ['url', 'URL'],
  ['sql', 'SQL'],
  ['api', 'API'],
  ['ttl', 'TTL'],
  ['tls', 'TLS'],
]);

function words(segment: string): string {
  if (/^\d+$/u.test(segment)) return String(Number(segment) + 1);
  const spaced = segment
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .replace(/[_-]+/gu, ' ')
    .toLowerCase()
    .split(' ')
    .map((word) => ACRONYMS.get(word) ?? word)
    .join(' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The request path of a field without where it travelled: `querystring.uid` → `uid`. */
export function fieldPath(path: string): string {
  const [first, ...rest] = path.split('.');
  return first !== undefined && LOCATIONS.has(first) && rest.length > 0 ? rest.join('.') : path;
}

/** A field path as people read it: `minTotal` → 'Min total', `parameters.0.name` → 'Parameters 1 › Name'. */
export function fieldLabel(path: string, labels: Readonly<Record<string, string>> = {}): string {
  const bare = fieldPath(path);
  const known = labels[bare] ?? labels[path];
  if (known) return known;
  const segments = bare.split('.').filter(Boolean);
  if (segments.length === 0) return path;
  // A list position reads with the list ('Parameters 1'), not as a level of its own.
  const parts: string[] = [];
  for (const segment of segments) {
    const word = words(segment);
    if (/^\d+$/u.test(segment) && parts.length > 0) parts[parts.length - 1] = `${parts[parts.length - 1]} ${word}`;
    else parts.push(word);
  }
  return parts.join(' › ');
}

/** Whether a form shows this field's messages itself: the field, or one inside it (`parameters` holds `parameters.0`). */
export function isShownInline(path: string, inlineFields: readonly string[]): boolean {
  const bare = fieldPath(path);
  return inlineFields.some((field) => bare === field || bare.startsWith(`${field}.`));
}

/** A 400's 'field: messages' lines, for the fields no form shows, each field by its label. */
export function validationLines(errors: ErrorsMap, inlineFields: readonly string[] = []): string[] {
  return Object.entries(errors)
    .filter(([field]) => !isShownInline(field, inlineFields))
    .map(([field, messages]) => `${fieldLabel(field)}: ${messages.join(', ')}`);
}

/** The field's value that its messages were about: the top-level member the path starts with. */
function valueAt(values: object, path: string): string {
  const key = fieldPath(path).split('.')[0] ?? '';
  return JSON.stringify((values as Record<string, unknown>)[key] ?? null);
}

/** What each refused field held when it was refused (compare with `liveErrors`). */
export function valuesWhenRefused(errors: ErrorsMap, values: object): Record<string, string> {
  return Object.fromEntries(Object.keys(errors).map((field) => [field, valueAt(values, field)]));
}

/**
 * The messages that still hold: a field's messages go as soon as its value differs from the one refused, so
 * "Name is required" leaves once a name is typed, without waiting for the next save.
 */
export function liveErrors(errors: ErrorsMap, refused: Readonly<Record<string, string>>, values: object): ErrorsMap {
  return Object.fromEntries(
    Object.entries(errors).filter(
      ([field]) => refused[field] === undefined || refused[field] === valueAt(values, field),
    ),
  );
}
