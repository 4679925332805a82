import type { ApiError } from '../../../lib/api-error.ts';

/** The parents' current values (the editor's run values) as the preview sends them, and those still missing. */
export function parentValues(dependsOn: readonly string[], values: Record<string, string>) {
  const given: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of dependsOn) {
    const value = values[name]?.trim() ?? '';
    if (value === '') missing.push(name);
    else given[name] = value;
  }
  return { values: given, missing };
}

/** A failed preview in words: the 400's messages (a parent the source needs, a column it lacks) or the error's. */
export function previewProblem(error: ApiError): string {
  const lines = Object.values(error.errors).flat();
  return lines.length > 0 ? lines.join(' ') : error.message;
}
