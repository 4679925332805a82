import { UsageError } from './args.ts';

// Secret values travel only from the person or pipeline running the command to the server, never the other way:
// an export names a secret by its reference, and a plan answers which references the collection does not hold.
// Values come from a secrets file (sent as given) or from environment variables named after the reference.

export const SECRET_ENV_PREFIX = 'DATALAB_SECRET_';

/** The environment variable that holds a reference's value: `db-password` → `DATALAB_SECRET_DB_PASSWORD`. */
export function secretEnvName(reference: string): string {
  return SECRET_ENV_PREFIX + reference.toUpperCase().replace(/[^A-Z0-9]/gu, '_');
}

function fromJson(text: string, source: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`${source} must hold one JSON object of reference: value`);
  const secrets: Record<string, string> = {};
  for (const [reference, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new UsageError(`${source}: the value of '${reference}' must be text`);
    secrets[reference] = value;
  }
  return secrets;
}

function fromLines(text: string, source: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  text.split(/\r?\n/u).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const equals = line.indexOf('=');
    const reference = equals < 0 ? '' : line.slice(0, equals).trim();
    // The line number only: the line itself may hold a value.
    if (reference === '') throw new UsageError(`${source}, line ${index + 1}: expected 'reference=value'`);
    secrets[reference] = line.slice(equals + 1);
  });
  return secrets;
}

/** A secrets file's values by reference: a JSON object, or lines `reference=value` (blank lines and # comments). */
export function parseSecretsFile(text: string, source = 'The secrets file'): Record<string, string> {
  return /^[[{]/u.test(text.trimStart()) ? fromJson(text, source) : fromLines(text, source);
}

/** The values the environment holds for these references. */
export function secretsFromEnv(
  references: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const reference of references) {
    const value = env[secretEnvName(reference)];
    if (value !== undefined && value !== '') secrets[reference] = value;
  }
  return secrets;
}
