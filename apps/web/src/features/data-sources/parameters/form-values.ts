import type { FormParameter } from './definition.ts';

// Parameter values as the form holds them (text, lists of text, booleans), as they sit in the page's URL (one key
// per parameter, repeated for lists, so a call can be shared) and as they are sent to the calling layer.

export type FormValue = string | string[] | boolean;
export type FormValues = Record<string, FormValue>;

function defaultOf(parameter: FormParameter): FormValue {
  const value = parameter.default;
  if (parameter.type === 'boolean' && !parameter.list) return value === true;
  if (parameter.list) return Array.isArray(value) ? value.map(String) : [];
  if (value === undefined || value === null) return '';
  return parameter.type === 'date-time' ? toLocalDateTime(String(value)) : String(value);
}

/** The values in the URL, falling back to each parameter's default. */
export function valuesFromSearch(parameters: readonly FormParameter[], search: URLSearchParams): FormValues {
  const values: FormValues = {};
  for (const parameter of parameters) {
    const all = search.getAll(parameter.name);
    if (all.length === 0) values[parameter.name] = defaultOf(parameter);
    else if (parameter.list) values[parameter.name] = all;
    else if (parameter.type === 'boolean') values[parameter.name] = all[0] === 'true';
    else values[parameter.name] = all[0] ?? '';
  }
  return values;
}

export function valuesToSearch(parameters: readonly FormParameter[], values: FormValues): URLSearchParams {
  const search = new URLSearchParams();
  for (const parameter of parameters) {
    const value = values[parameter.name];
    if (Array.isArray(value)) value.forEach((item) => search.append(parameter.name, item));
    else if (typeof value === 'boolean') search.set(parameter.name, String(value));
    else if (value) search.set(parameter.name, value);
  }
  return search;
}

/** The JSON object the calling layer takes: empty values left out (the server applies defaults and 'required'). */
export function valuesToCall(parameters: readonly FormParameter[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = values[parameter.name];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    if (parameter.type === 'date-time') {
      body[parameter.name] = Array.isArray(value) ? value.map(toIsoDateTime) : toIsoDateTime(String(value));
    } else {
      body[parameter.name] = value;
    }
  }
  return body;
}

/** 'YYYY-MM-DDTHH:mm' (a datetime-local input, the user's time zone) → ISO 8601 with an offset, as the engine wants. */
export function toIsoDateTime(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

function toLocalDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The parents' values a dependent parameter's options are asked with (query string form). */
export function parentQuery(parents: readonly string[], values: FormValues): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of parents) {
    const value = values[name];
    if (Array.isArray(value)) query[name] = value;
    else if (typeof value === 'boolean') query[name] = String(value);
    else if (value !== undefined && value !== '') query[name] = value;
  }
  return query;
}
