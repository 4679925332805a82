import { callPath } from '@datalab/contract/call';
import { replaceDates, toUtcDate } from '@datalab/contract/dates';

// Building the outgoing request of a call: path parameters, query string and JSON body, with
// Date values reduced to a UTC date (product §3).

function entriesOf(value: unknown): [string, unknown][] {
  return typeof value === 'object' && value !== null ? Object.entries(value) : [];
}

function scalar(value: unknown): string {
  if (value instanceof Date) return toUtcDate(value);
  if (typeof value === 'object' && value !== null) return JSON.stringify(value, replaceDates);
  return String(value);
}

export function buildPath(template: string, params: unknown): string {
  const values = Object.fromEntries(
    entriesOf(params)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => [name, scalar(value)]),
  );
  return callPath(template, values);
}

export function buildQuery(query: unknown): string {
  const search = new URLSearchParams();
  for (const [name, value] of entriesOf(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item !== undefined && item !== null) search.append(name, scalar(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export function buildBody(body: unknown): string | undefined {
  return body === undefined ? undefined : JSON.stringify(body, replaceDates);
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/u, '')}${path}`;
}
